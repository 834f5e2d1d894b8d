-- Nexmark q0 (pass through) for DuckDB over the generated files: the suite's q0.sql as it is.
SELECT auction, bidder, price, "dateTime", extra FROM bid;
