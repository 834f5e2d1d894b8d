-- weir-test: {"baseTime": 1700006398000}
-- Nexmark q11 (user sessions: SESSION as gaps and islands; sessions whose [first, last + 10 s] touch merge (Flink's TimeWindow.intersects is inclusive)).
WITH marked AS (
  SELECT bidder, "dateTime",
         CASE WHEN "dateTime" - lag("dateTime") OVER (PARTITION BY bidder ORDER BY "dateTime") <= 10000
              THEN 0 ELSE 1 END AS starts
  FROM bid),
sessions AS (
  SELECT bidder, "dateTime",
         sum(starts) OVER (PARTITION BY bidder ORDER BY "dateTime" ROWS UNBOUNDED PRECEDING) AS session
  FROM marked)
SELECT bidder, count(*) AS bid_count, strftime(epoch_ms(min("dateTime")), '%Y-%m-%dT%H:%M:%S.%gZ') AS starttime,
       strftime(epoch_ms(max("dateTime") + 10000), '%Y-%m-%dT%H:%M:%S.%gZ') AS endtime
FROM sessions GROUP BY bidder, session;
