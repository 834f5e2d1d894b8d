import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileCondition } from '../../../engine/sql/index.ts';
import { value } from './helpers.ts';

describe('arithmetic', () => {
  it('computes + - * / % and unary minus with SQL precedence', () => {
    const row = { a: 7, b: 2, c: 3 };
    assert.equal(value('a + b * c', row), 13);
    assert.equal(value('(a + b) * c', row), 27);
    assert.equal(value('a - b - c', row), 2);
    assert.equal(value('a / b', row), 3, 'whole numbers are BIGINTs: truncating, as Flink');
    assert.equal(value('a / b', { a: 7.5, b: 2 }), 3.75, 'a fraction is a DOUBLE');
    assert.equal(value('a % b', row), 1);
    assert.equal(value('-a + b', row), -5);
    assert.equal(value('a * -b', row), -14);
    assert.equal(value('- (a - b)', row), -5);
  });
  it('divides integer literals and integer casts as Flink does (truncating)', () => {
    assert.equal(value('7 / 2'), 3);
    assert.equal(value('-7 / 2'), -3);
    assert.equal(value('CAST(a AS INT) / 2', { a: 9 }), 4);
    assert.equal(value('7.0 / 2'), 3.5);
    assert.equal(value('CAST(a AS DOUBLE) / 2', { a: 9 }), 4.5);
  });
  it('fails on integer and DECIMAL division by zero (as Flink), gives NULL for DOUBLE', () => {
    assert.throws(() => value('a / 0', { a: 1 }), /BIGINT division by zero: 1 \/ 0/);
    assert.throws(() => value('a / b', { a: 1, b: 0 }), /BIGINT division by zero/);
    assert.throws(() => value('a % 0', { a: 5 }), /BIGINT modulo by zero/);
    assert.throws(() => value('1.5 / 0'), /DECIMAL division by zero/);
    assert.equal(value('a / 0', { a: 1.5 }), null, 'DOUBLE: NULL in Weir, Infinity in Flink (not JSON)');
    assert.equal(value('CAST(a AS DOUBLE) / 0', { a: 1 }), null);
  });
  it('propagates NULL and missing columns', () => {
    for (const op of ['+', '-', '*', '/', '%']) {
      assert.equal(value(`a ${op} b`, { a: 1, b: null }), null, op);
      assert.equal(value(`a ${op} b`, { b: 3 }), null, `${op} with a missing column`);
      assert.equal(value(`NULL ${op} 1`), null, `${op} NULL literal`);
    }
    assert.equal(value('-a', { a: null }), null);
  });
  it('reads numeric strings as numbers (CSV rows) and non-numeric ones as NULL', () => {
    assert.equal(value('a + 1', { a: '41' }), 42);
    assert.equal(value('a * 2', { a: ' 2.5 ' }), 5);
    assert.equal(value('a + 1', { a: 'abc' }), null);
    assert.equal(value('-a', { a: '3' }), -3);
  });
  it('computes DECIMAL literals exactly (SQL reads 1.005 as DECIMAL(4, 3))', () => {
    assert.equal(value('a * 1.5', { a: 2 }), 3);
    assert.equal(value('0.1 + 0.2'), 0.3, 'exact, not 0.30000000000000004');
    assert.equal(value('0.1 + 0.2 = 0.3'), true);
    assert.equal(value('ROUND(a * 1.005, 2)', { a: 50 }), 50.25);
    assert.equal(
      value('ROUND(a * 1.005, 2)', { a: 3 }),
      3.02,
      '3.015 rounds HALF_UP; the double 3.0149999... would not',
    );
    assert.equal(value('10 / 4.0'), 2.5);
    assert.equal(value('1 / 3.0'), 0.333333, 'DECIMAL division keeps max(6, s1 + p2 + 1) digits');
    assert.equal(value('a * 1.5', { a: 0.5 }), 0.75, 'a DOUBLE with a DECIMAL is a DOUBLE');
  });
});

describe('comparisons', () => {
  const cases: Array<[string, boolean]> = [
    ['a = 5', true],
    ['a <> 5', false],
    ['a != 5', false],
    ['a < 6', true],
    ['a <= 5', true],
    ['a > 5', false],
    ['a >= 5', true],
    ['a > 4', true],
    ['a < 5', false],
  ];
  for (const [expr, want] of cases) {
    it(`${expr} for a = 5 is ${want}, and NULL for a NULL`, () => {
      assert.equal(value(expr, { a: 5 }), want);
      assert.equal(value(expr, { a: null }), null);
      assert.equal(value(expr, {}), null);
    });
  }
  it('compares strings, booleans and numeric strings', () => {
    assert.equal(value("s = 'abc'", { s: 'abc' }), true);
    assert.equal(value("s < 'b'", { s: 'abc' }), true);
    assert.equal(value("s > 'B'", { s: 'a' }), true, 'by code unit: lower case sorts after upper');
    assert.equal(value('b = TRUE', { b: true }), true);
    assert.equal(value('a >= 10', { a: '15' }), true);
    assert.equal(value("a = 'abc'", { a: 1 }), null, 'incomparable values are UNKNOWN');
    assert.equal(value('a = b', { a: 1.5, b: 1.5 }), true);
  });
  it('compares NULL with NULL as UNKNOWN', () => {
    assert.equal(value('NULL = NULL'), null);
    assert.equal(value('a = b', {}), null);
  });
});

describe('AND / OR / NOT (three-valued logic)', () => {
  const T = true,
    F = false,
    N = null;
  const truth: Array<[boolean | null, boolean | null, boolean | null, boolean | null]> = [
    // a, b, a AND b, a OR b
    [T, T, T, T],
    [T, F, F, T],
    [T, N, N, T],
    [F, T, F, T],
    [F, F, F, F],
    [F, N, F, N],
    [N, T, N, T],
    [N, F, F, N],
    [N, N, N, N],
  ];
  for (const [a, b, and, or] of truth) {
    it(`${a} AND/OR ${b}`, () => {
      assert.equal(value('a AND b', { a, b }), and);
      assert.equal(value('a OR b', { a, b }), or);
    });
  }
  it('NOT', () => {
    assert.equal(value('NOT a', { a: true }), false);
    assert.equal(value('NOT a', { a: false }), true);
    assert.equal(value('NOT a', { a: null }), null);
    assert.equal(value('NOT NOT a', { a: true }), true);
    assert.equal(value('NOT (a)', { a: true }), false);
    assert.equal(value('NOT (x > 1) AND y', { x: 0, y: true }), true);
  });
  it('binds AND tighter than OR, and NOT tighter than AND', () => {
    // The parser alone would read `a AND b OR c` as `a AND (b OR c)`.
    assert.equal(value('a AND b OR c', { a: false, b: true, c: true }), true);
    assert.equal(value('a OR b AND c', { a: true, b: false, c: false }), true);
    assert.equal(value('a OR b AND c OR d', { a: false, b: true, c: false, d: true }), true);
    assert.equal(value('a AND b OR c AND d', { a: true, b: true, c: false, d: false }), true);
    assert.equal(value('(a OR b) AND c', { a: true, b: false, c: false }), false);
    assert.equal(value('NOT a AND b', { a: false, b: false }), false);
    assert.equal(value('NOT a OR b', { a: true, b: true }), true);
    assert.equal(value('x BETWEEN 1 AND 3 AND y OR z', { x: 9, y: true, z: true }), true);
    assert.equal(value('a IN (1, 2) OR b AND c', { a: 1, b: false, c: false }), true);
  });
  it('treats NULL as false in a where condition', () => {
    const where = compileCondition('a > 1 OR b');
    assert.equal(where({ a: null, b: null }), false);
    assert.equal(where({ a: 2 }), true);
    assert.equal(where({ a: 0, b: true }), true);
    assert.equal(where({ a: 0, b: false }), false);
    assert.equal(compileCondition('NOT (a > 1)')({ a: null }), false, 'NOT UNKNOWN is still UNKNOWN');
  });
  it("reads 'true'/'false' strings as booleans", () => {
    assert.equal(value('a AND b', { a: 'true', b: 'TRUE' }), true);
    assert.equal(value('NOT a', { a: 'false' }), true);
  });
});

describe('LIKE', () => {
  it('matches % and _', () => {
    assert.equal(value("s LIKE 'a%'", { s: 'abc' }), true);
    assert.equal(value("s LIKE 'a%'", { s: 'bac' }), false);
    assert.equal(value("s LIKE '_b_'", { s: 'abc' }), true);
    assert.equal(value("s LIKE '_b_'", { s: 'abcd' }), false);
    assert.equal(value("s LIKE '%'", { s: '' }), true);
    assert.equal(value("s LIKE 'a.c'", { s: 'abc' }), false, 'regex characters are literal');
    assert.equal(value("s LIKE 'a%c'", { s: 'a\nc' }), true, '% spans newlines');
    assert.equal(value("s LIKE 'ABC'", { s: 'abc' }), false, 'case-sensitive');
  });
  it('NOT LIKE and NULL', () => {
    assert.equal(value("s NOT LIKE 'a%'", { s: 'bcd' }), true);
    assert.equal(value("s LIKE 'a%'", { s: null }), null);
    assert.equal(value("s NOT LIKE 'a%'", {}), null);
    assert.equal(value('s LIKE p', { s: 'x', p: null }), null);
  });
  it('supports ESCAPE', () => {
    assert.equal(value("s LIKE '100!%' ESCAPE '!'", { s: '100%' }), true);
    assert.equal(value("s LIKE '100!%' ESCAPE '!'", { s: '1000' }), false);
    assert.equal(value("s LIKE 'a!_b' ESCAPE '!'", { s: 'a_b' }), true);
    assert.equal(value("s LIKE 'a!_b' ESCAPE '!'", { s: 'axb' }), false);
    assert.equal(value("s LIKE 'a!!' ESCAPE '!'", { s: 'a!' }), true);
  });
  it('takes the pattern from a column', () => {
    const rows = [
      { s: 'abc', p: 'a%' },
      { s: 'abc', p: 'b%' },
      { s: 'xbc', p: 'b%' },
    ];
    assert.deepEqual(
      rows.map((r) => value('s LIKE p', r)),
      [true, false, false],
    );
  });
});

describe('IN', () => {
  it('matches numbers and strings', () => {
    assert.equal(value('a IN (1, 2, 3)', { a: 2 }), true);
    assert.equal(value('a IN (1, 2, 3)', { a: 4 }), false);
    assert.equal(value("s IN ('x', 'y')", { s: 'y' }), true);
    assert.equal(value('a IN (1, 2)', { a: '2' }), true, 'numeric string');
    assert.equal(value('a IN (b, c)', { a: 3, b: 1, c: 3 }), true);
  });
  it('follows SQL for NULL', () => {
    assert.equal(value('a IN (1, 2)', { a: null }), null);
    assert.equal(value('a IN (1, NULL)', { a: 1 }), true);
    assert.equal(value('a IN (1, NULL)', { a: 2 }), null);
    assert.equal(value('a NOT IN (1, NULL)', { a: 2 }), null);
    assert.equal(value('a NOT IN (1, 2)', { a: 3 }), true);
    assert.equal(value('a NOT IN (1, 2)', { a: 1 }), false);
    assert.equal(value('a IN (b, c)', { a: 3, b: 1 }), null);
  });
});

describe('BETWEEN', () => {
  it('is inclusive', () => {
    assert.equal(value('a BETWEEN 1 AND 3', { a: 1 }), true);
    assert.equal(value('a BETWEEN 1 AND 3', { a: 3 }), true);
    assert.equal(value('a BETWEEN 1 AND 3', { a: 4 }), false);
    assert.equal(value('a NOT BETWEEN 1 AND 3', { a: 4 }), true);
    assert.equal(value("s BETWEEN 'a' AND 'c'", { s: 'b' }), true);
  });
  it('follows SQL for NULL', () => {
    assert.equal(value('a BETWEEN 1 AND 3', { a: null }), null);
    assert.equal(value('a BETWEEN lo AND 3', { a: 5 }), false, 'false on one side decides');
    assert.equal(value('a BETWEEN lo AND 3', { a: 2 }), null);
    assert.equal(value('a NOT BETWEEN lo AND 3', { a: 2 }), null);
  });
});

describe('IS', () => {
  it('IS [NOT] NULL never returns NULL', () => {
    assert.equal(value('a IS NULL', { a: null }), true);
    assert.equal(value('a IS NULL', {}), true);
    assert.equal(value('a IS NULL', { a: 0 }), false);
    assert.equal(value('a IS NOT NULL', { a: '' }), true);
    assert.equal(value('a IS NOT NULL', {}), false);
    assert.equal(value('a + 1 IS NULL', { a: null }), true);
  });
  it('IS [NOT] TRUE / FALSE', () => {
    assert.equal(value('a IS TRUE', { a: true }), true);
    assert.equal(value('a IS TRUE', { a: null }), false);
    assert.equal(value('a IS NOT TRUE', { a: null }), true);
    assert.equal(value('a IS FALSE', { a: false }), true);
    assert.equal(value('a IS NOT FALSE', { a: false }), false);
    assert.equal(value('(x > 1) IS FALSE', { x: 0 }), true);
  });
});

describe('IS [NOT] DISTINCT FROM', () => {
  it('treats NULL as equal to NULL and never returns NULL', () => {
    assert.equal(value('a IS DISTINCT FROM b', { a: 1, b: 1 }), false);
    assert.equal(value('a IS DISTINCT FROM b', { a: 1, b: 2 }), true);
    assert.equal(value('a IS DISTINCT FROM b', { a: 1 }), true);
    assert.equal(value('a IS DISTINCT FROM b', {}), false);
    assert.equal(value('a IS NOT DISTINCT FROM b', { a: null, b: null }), true);
    assert.equal(value('a IS NOT DISTINCT FROM b', { a: 'x', b: null }), false);
  });
});

describe('CASE', () => {
  it('searched CASE takes the first true branch; NULL conditions do not match', () => {
    const e = "CASE WHEN a > 10 THEN 'big' WHEN a > 5 THEN 'mid' ELSE 'small' END";
    assert.equal(value(e, { a: 20 }), 'big');
    assert.equal(value(e, { a: 7 }), 'mid');
    assert.equal(value(e, { a: 1 }), 'small');
    assert.equal(value(e, { a: null }), 'small');
  });
  it('simple CASE compares with =', () => {
    const e = "CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END";
    assert.equal(value(e, { a: 2 }), 'two');
    assert.equal(value(e, { a: 3 }), null, 'no ELSE gives NULL');
    assert.equal(value(e, { a: null }), null, 'NULL matches no WHEN');
    assert.equal(value("CASE s WHEN 'x' THEN 1 ELSE 0 END", { s: 'x' }), 1);
  });
  it('evaluates only the chosen branch', () => {
    assert.equal(value('CASE WHEN b = 0 THEN NULL ELSE a / b END', { a: 4, b: 0 }), null);
    assert.equal(value('CASE WHEN b = 0 THEN 0 ELSE a / b END', { a: 4, b: 2 }), 2);
  });
});

describe('|| (concatenation)', () => {
  it('concatenates and gives NULL for a NULL operand', () => {
    assert.equal(value("a || '-' || b", { a: 'x', b: 'y' }), 'x-y');
    assert.equal(value("a || 'z'", { a: null }), null);
    assert.equal(value("a || 'z'", { a: 1 }), '1z');
    assert.equal(value("a || b = 'xy'", { a: 'x', b: 'y' }), true, '|| binds tighter than =');
  });
});

describe('literals and identifiers', () => {
  it('reads literals', () => {
    assert.equal(value("'it''s'"), "it's");
    assert.equal(value('42'), 42);
    assert.equal(value('1.5'), 1.5);
    assert.equal(value('1e3'), 1000);
    assert.equal(value('TRUE'), true);
    assert.equal(value('false'), false);
    assert.equal(value('NULL'), null);
    assert.equal(value("TIMESTAMP '2026-01-02 03:04:05'"), '2026-01-02T03:04:05.000Z');
  });
  it('reads backtick-quoted and reserved-word columns', () => {
    assert.equal(value('`order id` + 1', { 'order id': 1 }), 2);
    assert.equal(value('`a-b` * 2', { 'a-b': 3 }), 6);
    assert.equal(value('`select`', { select: 1 }), 1);
    assert.equal(value("user = 'ann'", { user: 'ann' }), true);
    assert.equal(value('value * 2', { value: 4 }), 8);
    assert.equal(value('count + date', { count: 1, date: 2 }), 3);
    assert.equal(value('`timestamp`', { timestamp: 'x' }), 'x');
    assert.equal(value('café + 1', { café: 1 }), 2);
    assert.equal(value('EXPR$0 > 1', { EXPR$0: 2 }), true, "a downstream node reads a map's default names");
    assert.equal(value('window_start', { window_start: 'w' }), 'w');
    assert.equal(value('constructor', {}), null, 'Object.prototype names are not columns');
    assert.equal(value('toString', { toString: 5 }), 5);
  });
  it('is case-insensitive for keywords and function names, not for columns', () => {
    assert.equal(value("upper(s) like 'A%' and s is not null", { s: 'abc' }), true);
    assert.equal(value('A', { a: 1 }), null);
  });
});
