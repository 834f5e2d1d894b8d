-- Nexmark q21 (add channel id: DuckDB's regexp_extract gives '' without a match, Flink NULL: the match is tested first).
SELECT auction, bidder, price, channel,
  CASE
    WHEN lower(channel) = 'apple' THEN '0'
    WHEN lower(channel) = 'google' THEN '1'
    WHEN lower(channel) = 'facebook' THEN '2'
    WHEN lower(channel) = 'baidu' THEN '3'
    ELSE CASE WHEN regexp_matches(url, '(&|^)channel_id=([^&]*)') THEN regexp_extract(url, '(&|^)channel_id=([^&]*)', 2) END
  END AS channel_id
FROM bid
WHERE CASE WHEN regexp_matches(url, '(&|^)channel_id=([^&]*)') THEN regexp_extract(url, '(&|^)channel_id=([^&]*)', 2) END IS NOT NULL OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu');
