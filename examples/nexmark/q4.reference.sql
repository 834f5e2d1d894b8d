-- Nexmark q4 (average price for a category) for DuckDB: the suite's q4.sql with Flink's AVG(BIGINT), which truncates.
SELECT Q.category, CAST(trunc(sum(Q.final) / count(*)) AS BIGINT) AS final
FROM (
    SELECT MAX(B.price) AS final, A.category
    FROM auction A, bid B
    WHERE A.id = B.auction AND B."dateTime" BETWEEN A."dateTime" AND A.expires
    GROUP BY A.id, A.category
) Q
GROUP BY Q.category;
