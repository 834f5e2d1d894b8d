/**
 * Property-based (fast-check, fixed seed): the typed checker (issue 22). Random expressions over
 * random schemas given to `checkExpression` with the schema's column types never throw (an
 * ExpressionError is returned, not thrown), and where the checker accepts an expression and gives
 * it a static type T, evaluating it on random rows of that schema gives a value of type T or NULL
 * (a runtime SqlRuntimeError, such as an integer division by zero, is allowed: Flink fails too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkExpression,
  compileProjectionDetailed,
  ExpressionError,
  SqlRuntimeError,
  type ColumnType,
  type Row,
} from '../../../engine/sql/index.ts';
import { columnTypeOfFlinkType } from '../../../engine/nodes/column-types.ts';
import { Decimal } from '../../../engine/sql/decimal.ts';

const FLINK_TYPES = ['BIGINT', 'INT', 'DOUBLE', 'DECIMAL(10, 2)', 'STRING', 'BOOLEAN'] as const;
type FlinkType = (typeof FLINK_TYPES)[number];
const COLUMNS = ['c0', 'c1', 'c2', 'c3'];

/** A value a row of a column of this type holds (JSON, as Weir's sources give it), or null. */
function valueOf(t: FlinkType): fc.Arbitrary<unknown> {
  const v: Record<FlinkType, fc.Arbitrary<unknown>> = {
    BIGINT: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    INT: fc.integer({ min: -1000, max: 1000 }),
    DOUBLE: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    'DECIMAL(10, 2)': fc.integer({ min: -99_999, max: 99_999 }).map((n) => n / 100),
    STRING: fc.constantFrom('', 'a', 'Ab', 'x y', '12'),
    BOOLEAN: fc.boolean(),
  };
  return fc.option(v[t], { nil: null, freq: 5 });
}

const LITERALS = ['1', '0', '-3', '2.50', '1e2', "'s'", "''", 'TRUE', 'FALSE', 'NULL'];
const BINARY = ['+', '-', '*', '/', '%', '=', '<>', '<', '>=', 'AND', 'OR', '||'];
const UNARY_FUNCTIONS = ['UPPER', 'LOWER', 'ABS', 'CHAR_LENGTH', 'TRIM', 'FLOOR', 'CEIL', 'SQRT'];
const CASTS = ['BIGINT', 'INT', 'DOUBLE', 'DECIMAL(10, 2)', 'STRING', 'BOOLEAN'];

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...COLUMNS),
    fc.constantFrom(...LITERALS),
    fc.tuple(tie('e'), fc.constantFrom(...BINARY), tie('e')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    tie('e').map((e) => `(NOT ${e})`),
    tie('e').map((e) => `(-${e})`),
    fc.tuple(fc.constantFrom(...UNARY_FUNCTIONS), tie('e')).map(([f, e]) => `${f}(${e})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `COALESCE(${a}, ${b})`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`),
    fc.tuple(tie('e'), fc.constantFrom(...CASTS)).map(([e, t]) => `CAST(${e} AS ${t})`),
  ),
})).e;

const schema = fc.tuple(...COLUMNS.map(() => fc.constantFrom(...FLINK_TYPES)));

/** Whether `v` is a runtime value of static type `t` (or NULL). */
function hasType(v: unknown, t: ColumnType['type']): boolean {
  if (v === null || t === 'UNKNOWN') return true;
  switch (t) {
    case 'BIGINT':
      return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
    case 'DOUBLE':
      return typeof v === 'number';
    case 'DECIMAL':
      // An exact Decimal inside expressions and projections; a whole number from a BIGINT branch.
      return v instanceof Decimal || typeof v === 'number';
    case 'STRING':
      return typeof v === 'string';
    case 'BOOLEAN':
      return typeof v === 'boolean';
    case 'TIMESTAMP':
      return typeof v === 'string';
  }
}

test('typed checking never throws, and a value has the type the checker gives it', () => {
  let typed = 0;
  fc.assert(
    fc.property(
      schema.chain((types) =>
        fc.tuple(fc.constant(types), expr, fc.array(fc.tuple(...types.map(valueOf)), { minLength: 1, maxLength: 6 })),
      ),
      ([types, text, rows]) => {
        const columnTypes = new Map(COLUMNS.map((c, i) => [c, columnTypeOfFlinkType(types[i])]));
        const select = `${text} AS x`;
        let error: ExpressionError | null = null;
        assert.doesNotThrow(() => {
          error = checkExpression('select', select, columnTypes);
        });
        if (error) return;
        const p = compileProjectionDetailed(select, columnTypes);
        const t = p.columns![0].type ?? 'UNKNOWN';
        if (t !== 'UNKNOWN') typed++;
        for (const values of rows) {
          const row: Row = Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]]));
          let out: unknown;
          try {
            out = p.project(row).x;
          } catch (e) {
            if (e instanceof SqlRuntimeError || e instanceof ExpressionError) continue;
            throw e;
          }
          if (!hasType(out, t))
            assert.fail(`${select} over ${JSON.stringify(row)} (${types.join(', ')}): ${String(out)} is not ${t}`);
        }
      },
    ),
    { seed: 22, numRuns: 400 },
  );
  assert.ok(typed > 100, `only ${typed} expressions were typed: the generator must reach the typed paths`);
});
