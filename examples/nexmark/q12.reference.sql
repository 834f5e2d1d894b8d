-- weir-test: {"baseTime": 1700006398000}
-- Nexmark q12 (processing-time windows, on event time (as the canvas document: Weir windows run on event time)).
SELECT bidder, count(*) AS bid_count, strftime(epoch_ms(ws), '%Y-%m-%dT%H:%M:%S.%gZ') AS starttime, strftime(epoch_ms(ws + 10000), '%Y-%m-%dT%H:%M:%S.%gZ') AS endtime
FROM (SELECT bidder, "dateTime" // 10000 * 10000 AS ws FROM bid)
GROUP BY bidder, ws;
