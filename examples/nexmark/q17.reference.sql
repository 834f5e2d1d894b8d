-- weir-test: {"baseTime": 1700006398000}
-- Nexmark q17 (daily statistics per auction: AVG(BIGINT) truncates, as Flink's AvgAggFunction).
SELECT auction, strftime(epoch_ms("dateTime"), '%Y-%m-%d') AS "day",
count(*) AS total_bids,
count(*) FILTER (WHERE price < 10000) AS rank1_bids,
count(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
count(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
min(price) AS min_price, max(price) AS max_price,
CAST(trunc(sum(price) / count(price)) AS BIGINT) AS avg_price, sum(price) AS sum_price
FROM bid GROUP BY auction, strftime(epoch_ms("dateTime"), '%Y-%m-%d');
