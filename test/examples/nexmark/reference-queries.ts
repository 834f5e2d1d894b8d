/**
 * The Nexmark suite's queries (examples/nexmark/qN.sql) adapted to DuckDB over the generated files,
 * as the independent reference for Weir's canvas documents. Event times only grow, so no event is
 * late: the batch result equals the streaming job's final table. The adaptations, each on purpose:
 * - tables `person`, `auction`, `bid` hold the files' rows plus `seq`, the event's line in its file
 *   (arrival order). Flink ranks rows that tie in ORDER BY by arrival, so every ROW_NUMBER here
 *   ends its ORDER BY with `seq`: ASC where Flink keeps the earlier row (Top-N), DESC for q18 (a
 *   deduplication ordered by rowtime DESC keeps the last row: RowTimeDeduplicateFunction);
 * - `dateTime` is epoch milliseconds, as Weir's `source.nexmark` emits it; window bounds are
 *   written `iso(...)`, Weir's TIMESTAMP text (`2026-01-01T00:00:00.000Z`);
 * - DuckDB's regexp_extract and split_part give '' where Flink gives NULL: q21 tests the match
 *   first, q22 indexes the split list (NULL out of range);
 * - TUMBLE is `dateTime // size * size`; SESSION is gaps-and-islands with Flink's merge rule (two
 *   sessions whose [start, last + gap) intervals touch are one: TimeWindow.intersects is inclusive);
 * - q12's processing-time window is an event-time window, as in the canvas document;
 * - q13's side input is the CSV file joined as a table (a lookup join over a static file).
 */

const ISO = `'%Y-%m-%dT%H:%M:%S.%gZ'`;
const iso = (ms: string): string => `strftime(epoch_ms(${ms}), ${ISO})`;
const day = `strftime(epoch_ms("dateTime"), '%Y-%m-%d')`;

const RANKS = (c: string, suffix: string): string =>
  [
    `${c} AS total_${suffix}`,
    `${c} FILTER (WHERE price < 10000) AS rank1_${suffix}`,
    `${c} FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_${suffix}`,
    `${c} FILTER (WHERE price >= 1000000) AS rank3_${suffix}`,
  ].join(',\n    ');
const DAILY = [RANKS('count(*)', 'bids'), RANKS('count(DISTINCT bidder)', 'bidders'), RANKS('count(DISTINCT auction)', 'auctions')].join(',\n    ');
const CHANNEL_ID = `'(&|^)channel_id=([^&]*)'`;
const channelId = `CASE WHEN regexp_matches(url, ${CHANNEL_ID}) THEN regexp_extract(url, ${CHANNEL_ID}, 2) END`;

export const REFERENCE_SQL: Record<string, string> = {
  q8: `
    SELECT P.id, P.name, ${iso('P.ws')} AS stime
    FROM (SELECT id, name, "dateTime" // 10000 * 10000 AS ws FROM person GROUP BY id, name, ws) P
    JOIN (SELECT seller, "dateTime" // 10000 * 10000 AS ws FROM auction GROUP BY seller, ws) A
      ON P.id = A.seller AND P.ws = A.ws`,
  q9: `
    SELECT id, itemName, description, initialBid, reserve, "dateTime", expires, seller, category, extra,
           auction, bidder, price, bid_dateTime, bid_extra
    FROM (
      SELECT A.id, A.itemName, A.description, A.initialBid, A.reserve, A."dateTime", A.expires, A.seller,
             A.category, A.extra, B.auction, B.bidder, B.price, B."dateTime" AS bid_dateTime, B.extra AS bid_extra,
             ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B."dateTime" ASC, B.seq ASC) AS rownum
      FROM auction A, bid B
      WHERE A.id = B.auction AND B."dateTime" BETWEEN A."dateTime" AND A.expires)
    WHERE rownum <= 1`,
  q11: `
    WITH marked AS (
      SELECT bidder, "dateTime",
             CASE WHEN "dateTime" - lag("dateTime") OVER (PARTITION BY bidder ORDER BY "dateTime") <= 10000
                  THEN 0 ELSE 1 END AS starts
      FROM bid),
    sessions AS (
      SELECT bidder, "dateTime",
             sum(starts) OVER (PARTITION BY bidder ORDER BY "dateTime" ROWS UNBOUNDED PRECEDING) AS session
      FROM marked)
    SELECT bidder, count(*) AS bid_count, ${iso('min("dateTime")')} AS starttime,
           ${iso('max("dateTime") + 10000')} AS endtime
    FROM sessions GROUP BY bidder, session`,
  q12: `
    SELECT bidder, count(*) AS bid_count, ${iso('ws')} AS starttime, ${iso('ws + 10000')} AS endtime
    FROM (SELECT bidder, "dateTime" // 10000 * 10000 AS ws FROM bid)
    GROUP BY bidder, ws`,
  q13: `
    SELECT B.auction, B.bidder, B.price, B."dateTime", S."value"
    FROM bid B JOIN side_input S ON B.auction % 10000 = S."key"`,
  q15: `
    SELECT ${day} AS "day",
    ${DAILY}
    FROM bid GROUP BY ${day}`,
  q16: `
    SELECT channel, ${day} AS "day", max(strftime(epoch_ms("dateTime"), '%H:%M')) AS "minute",
    ${DAILY}
    FROM bid GROUP BY channel, ${day}`,
  q17: `
    SELECT auction, ${day} AS "day",
    ${RANKS('count(*)', 'bids')},
    min(price) AS min_price, max(price) AS max_price,
    CAST(trunc(sum(price) / count(price)) AS BIGINT) AS avg_price, sum(price) AS sum_price
    FROM bid GROUP BY auction, ${day}`,
  q18: `
    SELECT auction, bidder, price, channel, url, "dateTime", extra
    FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY "dateTime" DESC, seq DESC) AS rank_number
          FROM bid)
    WHERE rank_number <= 1`,
  q19: `
    SELECT auction, bidder, price, channel, url, "dateTime", extra, rank_number
    FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC, seq ASC) AS rank_number FROM bid)
    WHERE rank_number <= 10`,
  q20: `
    SELECT auction, bidder, price, channel, url, B."dateTime" AS bid_dateTime, B.extra AS bid_extra,
           itemName, description, initialBid, reserve, A."dateTime" AS auction_dateTime, expires, seller,
           category, A.extra AS auction_extra
    FROM bid AS B INNER JOIN auction AS A ON B.auction = A.id
    WHERE A.category = 10`,
  q21: `
    SELECT auction, bidder, price, channel,
      CASE
        WHEN lower(channel) = 'apple' THEN '0'
        WHEN lower(channel) = 'google' THEN '1'
        WHEN lower(channel) = 'facebook' THEN '2'
        WHEN lower(channel) = 'baidu' THEN '3'
        ELSE ${channelId}
      END AS channel_id
    FROM bid
    WHERE ${channelId} IS NOT NULL OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')`,
  q22: `
    SELECT auction, bidder, price, channel,
      string_split(url, '/')[4] AS dir1, string_split(url, '/')[5] AS dir2, string_split(url, '/')[6] AS dir3
    FROM bid`,
};
