-- Nexmark q18 (find last bid). The suite orders by its rowtime, which Flink plans as a deduplication
-- keeping the LAST of bids with equal dateTime (DeduplicateFunctionHelper); Weir's topn with limit 1
-- and one DESC key does the same. Bids of one bidder on one auction often share a millisecond (hot
-- bidders and auctions), so the reference breaks those ties by arrival, latest first: seq DESC.
SELECT auction, bidder, price, channel, url, "dateTime", extra
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY "dateTime" DESC, seq DESC) AS rank_number
      FROM bid)
WHERE rank_number <= 1;
