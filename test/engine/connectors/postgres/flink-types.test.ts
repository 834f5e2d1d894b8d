/** PostgreSQL column types as Flink types, as flink-connector-jdbc's PostgresTypeMapper maps them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flinkTypeOfPgType } from '../../../../engine/connectors/postgres/flink-types.ts';

test('each PostgreSQL type the mapper knows, with its modifiers (format_type spelling)', () => {
  const cases: Array<[string, string, string]> = [
    ['boolean', 'boolean', 'BOOLEAN'],
    ['bytea', 'bytea', 'BYTES'],
    ['smallint', 'smallint', 'SMALLINT'],
    ['integer', 'integer', 'INT'],
    ['bigint', 'bigint', 'BIGINT'],
    ['real', 'real', 'FLOAT'],
    ['double precision', 'double precision', 'DOUBLE'],
    ['numeric', 'numeric(12,2)', 'DECIMAL(12, 2)'],
    ['numeric', 'numeric(7)', 'DECIMAL(7, 0)'],
    ['numeric', 'numeric', 'DECIMAL(38, 18)'],
    ['character', 'character(3)', 'CHAR(3)'],
    ['character varying', 'character varying(20)', 'VARCHAR(20)'],
    ['character varying', 'character varying', 'STRING'],
    ['text', 'text', 'STRING'],
    ['timestamp without time zone', 'timestamp(3) without time zone', 'TIMESTAMP(3)'],
    ['timestamp without time zone', 'timestamp without time zone', 'TIMESTAMP(6)'],
    ['timestamp with time zone', 'timestamp(3) with time zone', 'TIMESTAMP_LTZ(3)'],
    ['timestamp with time zone', 'timestamp with time zone', 'TIMESTAMP_LTZ(6)'],
    ['time without time zone', 'time without time zone', 'TIME(6)'],
    ['date', 'date', 'DATE'],
    ['integer[]', 'integer[]', 'ARRAY<INT>'],
    ['text[]', 'text[]', 'ARRAY<STRING>'],
  ];
  for (const [base, full, flink] of cases) assert.equal(flinkTypeOfPgType(base, full), flink, full);
});

test('types the mapper does not know map to null (left to PostgreSQL)', () => {
  for (const t of ['json', 'jsonb', 'uuid', 'interval', 'mood', 'json[]'])
    assert.equal(flinkTypeOfPgType(t, t), null, t);
});
