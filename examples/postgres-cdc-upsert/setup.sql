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

-- The sinks' tables: the CDC branch keeps a live copy of the orders (inserts, updates and deletes
-- applied by key), the snapshot branch writes paid revenue per customer and minute. Upserts need a
-- primary key (or unique constraint).
CREATE TABLE orders_copy (
  id bigint PRIMARY KEY,
  customer text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  gross numeric(12, 2) NOT NULL,
  status text NOT NULL,
  placed_at bigint NOT NULL
);
CREATE TABLE revenue_per_minute (
  customer text NOT NULL,
  window_start text NOT NULL,
  window_end text NOT NULL,
  orders bigint NOT NULL,
  revenue numeric(12, 2) NOT NULL,
  PRIMARY KEY (customer, window_start)
);
