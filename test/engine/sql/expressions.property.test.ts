/**
 * Property-based (fast-check): the expression compiler is total. Random text, random token soups
 * and mutations of valid expressions given to `checkExpression` (every kind) and the compilers
 * either compile or fail with an `ExpressionError` carrying a message, within a time bound; a
 * compiled condition or projection evaluated on random rows never throws anything but an
 * ExpressionError (a runtime error such as a bad CAST), never hangs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkExpression,
  compileAggregates,
  compileCondition,
  compileProjection,
  ExpressionError,
  parseKeyBy,
  SqlRuntimeError,
} from '../../../engine/sql/index.ts';

const KINDS = ['where', 'select', 'keyBy', 'aggregates'] as const;
const TOKENS = [
  'a',
  'b',
  'amount',
  'user',
  '1',
  '0',
  '-1',
  '1e308',
  "'x'",
  "''",
  'NULL',
  'TRUE',
  '(',
  ')',
  ',',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<>',
  '<',
  '>=',
  'AND',
  'OR',
  'NOT',
  'IS',
  'LIKE',
  'IN',
  'BETWEEN',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'CAST',
  'AS',
  'INT',
  'DOUBLE',
  'STRING',
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'UPPER',
  'COALESCE',
  'ABS',
  '||',
  '.',
  '"',
  '`',
  ';',
  '--',
  '/*',
  '?',
];
const VALID = [
  'amount > 10',
  "user = 'a' AND amount >= 1",
  'a, b AS c, amount * 2 AS d',
  'COUNT(*) AS n, SUM(amount) AS s',
  'user',
  "CASE WHEN a > 1 THEN 'big' ELSE 'small' END AS size",
  'CAST(amount AS DOUBLE) / 3 AS t',
  "UPPER(user) LIKE 'A%'",
];

function within(ms: number, fn: () => void): void {
  const started = performance.now();
  fn();
  assert.ok(performance.now() - started < ms, `answered within ${ms} ms`);
}

function total(kind: (typeof KINDS)[number], text: string): void {
  within(2000, () => {
    const err = checkExpression(kind, text);
    assert.ok(
      err === null || (err instanceof ExpressionError && err.message.length > 0),
      `checkExpression(${kind}, ${JSON.stringify(text)})`,
    );
  });
  within(2000, () => {
    try {
      if (kind === 'where') {
        const test = compileCondition(text);
        for (const row of ROWS) evalSafely(() => test(row));
      } else if (kind === 'select') {
        const p = compileProjection(text);
        for (const row of ROWS) evalSafely(() => p.project(row));
      } else if (kind === 'keyBy') parseKeyBy(text);
      else compileAggregates(text);
    } catch (e) {
      assert.ok(
        e instanceof ExpressionError,
        `${kind} ${JSON.stringify(text)} threw ${(e as Error)?.name}: ${(e as Error)?.message}`,
      );
    }
  });
}

function evalSafely(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    // A SqlRuntimeError is a designed failure with a message (integer division by zero, a failed
    // CAST: Flink fails the job too), not a crash.
    assert.ok(
      e instanceof ExpressionError || e instanceof SqlRuntimeError,
      `evaluation threw ${(e as Error)?.name}: ${(e as Error)?.message}`,
    );
  }
}

const ROWS: Array<Record<string, unknown>> = [
  { a: 1, b: 2, amount: 10, user: 'a' },
  { a: null, b: 'x', amount: -1e308, user: null },
  {},
  { a: 'NaN', amount: '12', user: 7 },
];

test('random text never crashes or hangs the expression checker and compilers', () => {
  fc.assert(
    fc.property(fc.constantFrom(...KINDS), fc.string({ maxLength: 80 }), (kind, text) => {
      total(kind, text);
    }),
    { numRuns: 400 },
  );
});

test('random token soups never crash or hang them', () => {
  fc.assert(
    fc.property(fc.constantFrom(...KINDS), fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }), (kind, tokens) => {
      total(kind, tokens.join(' '));
    }),
    { numRuns: 600 },
  );
});

test('valid expressions with random edits never crash or hang them', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...KINDS),
      fc.constantFrom(...VALID),
      fc.nat(),
      fc.nat({ max: 5 }),
      fc.constantFrom(...TOKENS),
      (kind, text, at, cut, insert) => {
        const i = at % (text.length + 1);
        total(kind, text.slice(0, i) + insert + text.slice(Math.min(text.length, i + cut)));
      },
    ),
    { numRuns: 600 },
  );
});

// Found by the token soup above with a random seed: folding `-1 / 0` threw SqlRuntimeError out of
// the compiler. A constant that fails is evaluated per row instead, failing there as over a column.
test('a constant that fails to evaluate (-1 / 0) compiles and fails on the row', () => {
  const test = compileCondition('-1 / 0 > 1');
  assert.throws(() => test({}), /division by zero/);
});
