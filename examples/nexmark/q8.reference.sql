-- weir-test: {"baseTime": 1700006398000}
-- Nexmark q8 (monitor new users: TUMBLE is "dateTime" // 10000 * 10000; window bounds as Weir's TIMESTAMP text (ISO-8601, UTC)).
SELECT P.id, P.name, strftime(epoch_ms(P.ws), '%Y-%m-%dT%H:%M:%S.%gZ') AS stime
FROM (SELECT id, name, "dateTime" // 10000 * 10000 AS ws FROM person GROUP BY id, name, ws) P
JOIN (SELECT seller, "dateTime" // 10000 * 10000 AS ws FROM auction GROUP BY seller, ws) A
  ON P.id = A.seller AND P.ws = A.ws;
