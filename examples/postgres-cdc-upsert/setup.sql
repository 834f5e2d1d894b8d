-- Tables for examples/postgres-cdc-upsert (npm run pg:local -- --setup examples/postgres-cdc-upsert/setup.sql).
-- Safe to run again: it starts the example over.
DROP TABLE IF EXISTS orders, orders_copy, revenue_per_minute;

-- The source table. CDC needs a primary key and the old row of every update and delete.
CREATE TABLE orders (
  id bigint PRIMARY KEY,
  customer text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  status text NOT NULL,
  placed_at timestamp NOT NULL
);
ALTER TABLE orders REPLICA IDENTITY FULL;

INSERT INTO orders
SELECT i,
       (ARRAY['ada', 'grace', 'linus', 'barbara'])[1 + i % 4],
       round((5 + (i * 37) % 200)::numeric, 2),
       CASE WHEN i % 5 = 0 THEN 'cancelled' ELSE 'paid' END,
       timestamp '2024-01-01 12:00:00' + i * interval '7 seconds'
  FROM generate_series(1, 200) AS i;

-- The sinks' tables, both fed by the one CDC source: orders_copy is a live copy of the orders
-- (inserts, updates and deletes applied by key); revenue_per_minute is paid revenue per customer and
-- minute of placed_at, a tumbling window over the changelog (an update or delete takes the old row
-- out of its window), written once per window when the watermark passes its end. The watermark is
-- the newest placed_at seen minus 1 minute, so a window fires once an order placed more than a
-- minute after its end arrives; a change to an order of an already-fired window is late (dropped
-- and counted as "late" on the run's status line). Upserts need a primary key (or unique constraint).
-- The window bounds are TIMESTAMP(3), so their columns are timestamp(3): Flink (and `weir validate`)
-- refuses a TIMESTAMP into a text column.
--
-- To try it, with the job running (psql "postgresql://postgres@127.0.0.1:5499/postgres"):
--   UPDATE orders SET amount = 1000 WHERE id = 193;                            -- a still-open minute (12:22)
--   DELETE FROM orders WHERE id = 191;
--   INSERT INTO orders VALUES (201, 'ada', 50, 'paid', '2024-01-01 12:22:30');
--   INSERT INTO orders VALUES (202, 'grace', 10, 'paid', '2024-01-01 12:30:00'); -- fires 12:22 and 12:23
--   SELECT * FROM revenue_per_minute WHERE window_start >= '2024-01-01T12:22' ORDER BY 2, 1;
CREATE TABLE orders_copy (
  id bigint PRIMARY KEY,
  customer text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  gross numeric(12, 2) NOT NULL,
  status text NOT NULL,
  placed_at timestamp(3) NOT NULL
);
CREATE TABLE revenue_per_minute (
  customer text NOT NULL,
  window_start timestamp(3) NOT NULL,
  window_end timestamp(3) NOT NULL,
  orders bigint NOT NULL,
  revenue numeric(12, 2) NOT NULL,
  PRIMARY KEY (customer, window_start)
);
