-- Nexmark q2 (selection) for DuckDB: the suite's q2.sql as it is.
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
