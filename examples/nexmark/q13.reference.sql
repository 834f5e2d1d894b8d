-- Nexmark q13 (bounded side input join: the lookup into the static side_input.csv as a plain join).
SELECT B.auction, B.bidder, B.price, B."dateTime", S."value"
FROM bid B JOIN side_input S ON B.auction % 10000 = S."key";
