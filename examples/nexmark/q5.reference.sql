-- Nexmark q5 (hot items) for DuckDB: the suite's q5.sql with HOP(10s, 2s) spelled out (each bid in the 5 windows [s, s + 10s) that hold it).
WITH hop AS (
    SELECT B.auction, (B."dateTime" // 2000) * 2000 - k * 2000 AS starttime
    FROM bid B CROSS JOIN range(5) t(k)
), AuctionBids AS (
    SELECT auction, count(*) AS num, starttime FROM hop GROUP BY auction, starttime
), MaxBids AS (
    SELECT max(num) AS maxn, starttime FROM AuctionBids GROUP BY starttime
)
SELECT AuctionBids.auction, AuctionBids.num
FROM AuctionBids JOIN MaxBids
  ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.num >= MaxBids.maxn;
