-- Hand-written: orders of more than 5 per user in 10-second tumbling event-time windows.
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

CREATE VIEW big AS SELECT * FROM orders WHERE amount > 5;

CREATE TABLE totals (
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  `user` STRING,
  n BIGINT,
  total DOUBLE
) WITH (
  'connector' = 'filesystem',
  'path' = 'file://${DIR}/out/totals',
  'format' = 'json'
);

INSERT INTO totals
SELECT window_start, window_end, `user`, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE big, DESCRIPTOR(rt), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, `user`;
