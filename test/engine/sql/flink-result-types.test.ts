// Flink's result types as the planner gives them (engine/sql): the types every edge shows and the
// Flink SQL export declares (engine/export/flink-sql/planner-types.ts). Each expected type was
// measured on Flink 1.20.3 (Table.getResolvedSchema() of the same SELECT over a table with these
// column types), not taken from documentation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAggregates, compileProjectionDetailed, flinkTypeName } from '../../../engine/sql/index.ts';
import type { ColumnType } from '../../../engine/sql/index.ts';
import { columnTypeOfFlinkType } from '../../../engine/graph/column-types.ts';

const DECLARED: Record<string, string> = {
  user: 'STRING',
  value: 'BIGINT',
  amount: 'DOUBLE',
  qty: 'INT',
  i: 'INT',
  b: 'BIGINT',
  d: 'DECIMAL(5, 2)',
  s: 'STRING',
};
const types = new Map<string, ColumnType>(Object.entries(DECLARED).map(([n, t]) => [n, columnTypeOfFlinkType(t)]));

function selectTypes(select: string): Record<string, string> {
  const cols = compileProjectionDetailed(select, types).columns ?? [];
  return Object.fromEntries(cols.map((c) => [c.name, flinkTypeName({ ...c, type: c.type ?? 'UNKNOWN' })]));
}

test('scalar expressions: integer widths, DECIMAL shapes, functions', () => {
  assert.deepEqual(
    selectTypes(
      'value * 2 AS doubled, amount + qty AS total, UPPER(user) AS u, CAST(qty AS BIGINT) AS q, qty / 2 AS half, ' +
        "qty > 1 AS big, 'x' AS s, COALESCE(amount, 0) AS c, CASE WHEN qty > 1 THEN 'a' ELSE 'b' END AS k, qty * 1.5 AS dec",
    ),
    {
      doubled: 'BIGINT',
      total: 'DOUBLE',
      u: 'STRING',
      q: 'BIGINT',
      half: 'INT', // INT / INT is an INT in Flink (and truncates in Weir)
      big: 'BOOLEAN',
      s: 'STRING',
      c: 'DOUBLE',
      k: 'STRING',
      dec: 'DECIMAL(13, 1)', // DECIMAL(10, 0) * DECIMAL(2, 1)
    },
  );
  assert.deepEqual(
    selectTypes(
      'FLOOR(1.5) f, CEIL(-1.5) c, FLOOR(d) fd, ABS(d) ad, ABS(i) ai, i + i ii, i * 2 i2, i + b ib, i / 2 idv, ' +
        'MOD(i, 3) im, -i ni, CHAR_LENGTH(s) cl, CAST(s AS INT) ci, ROUND(d, 1) rd, ROUND(i, 1) ri, MOD(value, -3) AS m, NULLIF(qty, 1) AS n',
    ),
    {
      f: 'DECIMAL(2, 0)',
      c: 'DECIMAL(2, 0)',
      fd: 'DECIMAL(5, 0)',
      ad: 'DECIMAL(5, 2)',
      ai: 'INT',
      ii: 'INT',
      i2: 'INT',
      ib: 'BIGINT',
      idv: 'INT',
      im: 'INT',
      ni: 'INT',
      cl: 'INT',
      ci: 'INT',
      rd: 'DECIMAL(5, 1)',
      ri: 'INT',
      m: 'BIGINT',
      n: 'INT',
    },
  );
  assert.deepEqual(
    selectTypes(
      'COALESCE(i, 0) co, IF(i > 0, i, 0) iff, CASE WHEN i > 0 THEN i ELSE 0 END cs, NULLIF(i, 0) nf, ' +
        'GREATEST(i, 1) g, POWER(i, 2) p, SIGN(i) sg, SIGN(d) sgd, TRUNCATE(d, 1) td, i % 2 ip, CAST(i AS DECIMAL(10,2)) AS dd',
    ),
    {
      co: 'INT',
      iff: 'INT',
      cs: 'INT',
      nf: 'INT',
      g: 'INT',
      p: 'DOUBLE',
      sg: 'INT',
      sgd: 'DECIMAL(5, 2)',
      td: 'DECIMAL(5, 1)',
      ip: 'INT',
      dd: 'DECIMAL(10, 2)',
    },
  );
});

test('aggregates: SUM and AVG of an INT are INTs, COUNT a BIGINT, DECIMALs widen to 38 digits', () => {
  const calls = compileAggregates(
    'SUM(i) AS si, AVG(i) AS ai, MIN(i) AS mi, COUNT(*) AS c, SUM(d) AS sd, AVG(d) AS ad, COUNT(DISTINCT s) AS cd, ' +
      'LISTAGG(s) AS l, FIRST_VALUE(i) AS fv, STDDEV_POP(i) AS sp, VAR_SAMP(d) AS vs, MIN(amount) AS low, MAX(`user`) AS last, SUM(b) AS sb',
    types,
  );
  assert.deepEqual(Object.fromEntries(calls.map((a) => [a.alias, flinkTypeName(a.resultType)])), {
    si: 'INT',
    ai: 'INT',
    mi: 'INT',
    c: 'BIGINT',
    sd: 'DECIMAL(38, 2)',
    ad: 'DECIMAL(38, 6)',
    cd: 'BIGINT',
    l: 'STRING',
    fv: 'INT',
    sp: 'INT',
    vs: 'DECIMAL(38, 6)',
    low: 'DOUBLE',
    last: 'STRING',
    sb: 'BIGINT',
  });
});
