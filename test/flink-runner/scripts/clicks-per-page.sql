-- Hand-written: an updating count per page (a changelog), and the clicks with upper-cased pages.
CREATE TABLE clicks (
  page STRING,
  uid BIGINT,
  ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/clicks.jsonl',
  'format' = 'json'
);

CREATE TABLE per_page (
  page STRING,
  clicks BIGINT,
  users BIGINT
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/out/per_page',
  'format' = 'debezium-json'
);

CREATE TABLE shouted (
  page STRING,
  uid BIGINT
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/out/shouted',
  'format' = 'json'
);

EXECUTE STATEMENT SET
BEGIN
  INSERT INTO per_page SELECT page, COUNT(*) AS clicks, COUNT(DISTINCT uid) AS users FROM clicks GROUP BY page;
  INSERT INTO shouted SELECT UPPER(page) AS page, uid FROM clicks WHERE uid % 2 = 0;
END;
