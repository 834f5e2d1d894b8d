-- Nexmark q18 (find last bid). Differs on ties, on purpose (see README): the suite orders by its
-- rowtime, which Flink plans as a deduplication keeping the LAST of bids with equal dateTime; Weir's
-- topn (and its Flink export, where dateTime is not the time attribute) ranks equal rows by arrival
-- and keeps the FIRST. Bids of one bidder on one auction often share a millisecond (hot bidders
-- and auctions), so the reference follows Weir: seq ASC.
SELECT auction, bidder, price, channel, url, "dateTime", extra
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY "dateTime" DESC, seq ASC) AS rank_number
      FROM bid)
WHERE rank_number <= 1;
