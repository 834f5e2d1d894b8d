-- Hand-written: subqueries. Per 10-second window, the users whose total is the window's largest
-- (two subqueries joined, one nested, a condition on both join inputs), and the users with more
-- than 40 orders (a GROUP BY in a subquery, filtered outside it).
SET 'table.local-time-zone' = 'UTC';

CREATE TABLE orders (
  order_id BIGINT,
  `user` STRING,
  amount DOUBLE,
  ts BIGINT,
  rt AS TO_TIMESTAMP_LTZ(ts, 3),
  WATERMARK FOR rt AS rt - INTERVAL '2' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/orders.jsonl',
  'format' = 'json'
);

CREATE TABLE biggest (
  `user` STRING,
  total DOUBLE,
  starttime TIMESTAMP(3)
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/out/biggest',
  'format' = 'json'
);

CREATE TABLE regulars (
  `user` STRING,
  n BIGINT
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/out/regulars',
  'format' = 'debezium-json'
);

EXECUTE STATEMENT SET BEGIN
INSERT INTO biggest
SELECT T.`user`, T.total, T.starttime
FROM (
  SELECT `user`, SUM(amount) AS total, window_start AS starttime, window_end AS endtime
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '10' SECOND))
  GROUP BY `user`, window_start, window_end
) AS T
JOIN (
  SELECT MAX(W.total) AS top, W.starttime, W.endtime
  FROM (
    SELECT SUM(amount) AS total, window_start AS starttime, window_end AS endtime
    FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(rt), INTERVAL '10' SECOND))
    GROUP BY `user`, window_start, window_end
  ) AS W
  GROUP BY W.starttime, W.endtime
) AS M
ON T.starttime = M.starttime AND T.endtime = M.endtime AND T.total >= M.top;

INSERT INTO regulars
SELECT q.`user`, q.n FROM (SELECT `user`, COUNT(*) AS n FROM orders GROUP BY `user`) AS q WHERE q.n > 40;
END;
