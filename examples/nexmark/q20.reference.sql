-- Nexmark q20 (expand bid with auction: the suite's q20.sql as it is).
SELECT auction, bidder, price, channel, url, B."dateTime" AS bid_dateTime, B.extra AS bid_extra,
       itemName, description, initialBid, reserve, A."dateTime" AS auction_dateTime, expires, seller,
       category, A.extra AS auction_extra
FROM bid AS B INNER JOIN auction AS A ON B.auction = A.id
WHERE A.category = 10;
