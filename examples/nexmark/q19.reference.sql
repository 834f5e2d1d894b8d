-- Nexmark q19 (auction top-10 price: ties go by arrival (seq), as in Flink's Top-N).
SELECT auction, bidder, price, channel, url, "dateTime", extra, rank_number
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC, seq ASC) AS rank_number FROM bid)
WHERE rank_number <= 10;
