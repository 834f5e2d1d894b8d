-- Nexmark q22 (get URL directories: SPLIT_INDEX (0-based, NULL out of range) as the split list indexed 1-based (NULL out of range)).
SELECT auction, bidder, price, channel,
  string_split(url, '/')[4] AS dir1, string_split(url, '/')[5] AS dir2, string_split(url, '/')[6] AS dir3
FROM bid;
