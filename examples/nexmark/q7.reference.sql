-- weir-test: {"events": 150000}
-- Nexmark q7 (highest bid) for DuckDB: the suite's q7.sql with TUMBLE(10s) spelled out.
SELECT B.auction, B.price, B.bidder, B."dateTime", B.extra
FROM bid B
JOIN (
    SELECT MAX(price) AS maxprice, ("dateTime" // 10000) * 10000 + 10000 AS "dateTime"
    FROM bid
    GROUP BY "dateTime" // 10000
) B1
ON B.price = B1.maxprice
WHERE B."dateTime" BETWEEN B1."dateTime" - 10000 AND B1."dateTime";
