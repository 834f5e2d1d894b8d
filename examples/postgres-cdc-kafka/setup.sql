-- The table for examples/postgres-cdc-kafka (npm run pg:local -- --setup examples/postgres-cdc-kafka/setup.sql).
-- Safe to run again: it starts the example over.
DROP TABLE IF EXISTS orders;

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

-- With the job running, change the table (psql "postgresql://postgres@127.0.0.1:5499/postgres"):
--   UPDATE orders SET amount = 1000 WHERE id = 193;   -- a new value for key {"id":193}
--   DELETE FROM orders WHERE id = 191;                -- a tombstone for key {"id":191}
--   INSERT INTO orders VALUES (201, 'ada', 50, 'paid', '2024-01-01 12:22:30');
-- and watch the topic with a read_committed consumer: the last message per key is the row.
