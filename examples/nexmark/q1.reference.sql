-- Nexmark q1 (currency conversion) for DuckDB: the suite's q1.sql as it is.
SELECT auction, bidder, 0.908 * price AS price, "dateTime", extra FROM bid;
