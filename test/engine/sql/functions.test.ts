import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { value } from './helpers.ts';

describe('string functions', () => {
  it('UPPER / LOWER', () => {
    assert.equal(value('UPPER(s)', { s: 'aBc' }), 'ABC');
    assert.equal(value('LOWER(s)', { s: 'aBc' }), 'abc');
    assert.equal(value('UPPER(s)', { s: null }), null);
    assert.equal(value('LOWER(s)', {}), null);
  });
  it('CHAR_LENGTH / CHARACTER_LENGTH', () => {
    assert.equal(value('CHAR_LENGTH(s)', { s: 'hello' }), 5);
    assert.equal(value('CHARACTER_LENGTH(s)', { s: '' }), 0);
    assert.equal(value('CHAR_LENGTH(s)', { s: null }), null);
    assert.equal(value('CHAR_LENGTH(s) / 2', { s: 'abc' }), 1, 'CHAR_LENGTH is an integer');
  });
  it('SUBSTRING in both forms, 1-based, as Flink', () => {
    const row = { s: 'hello world' };
    assert.equal(value('SUBSTRING(s FROM 1 FOR 5)', row), 'hello');
    assert.equal(value('SUBSTRING(s FROM 7)', row), 'world');
    assert.equal(value('SUBSTRING(s, 7, 3)', row), 'wor');
    assert.equal(value('SUBSTRING(s, 7)', row), 'world');
    assert.equal(value('SUBSTR(s, 1, 2)', row), 'he');
    assert.equal(value('SUBSTRING(s, -5)', row), 'world', 'negative start counts from the end');
    assert.equal(value('SUBSTRING(s, 0, 2)', row), 'he', '0 acts as 1');
    assert.equal(value('SUBSTRING(s, 5, 0)', row), '');
    assert.equal(value('SUBSTRING(s, 5, -1)', row), '');
    assert.equal(value('SUBSTRING(s, 20)', row), '');
    assert.equal(value('SUBSTRING(s, 10, 100)', row), 'ld');
  });
  it('SUBSTRING with NULL', () => {
    assert.equal(value('SUBSTRING(s FROM 1 FOR 2)', { s: null }), null);
    assert.equal(value('SUBSTRING(s, i, 2)', { s: 'abc', i: null }), null);
    assert.equal(value('SUBSTRING(s, 1, n)', { s: 'abc', n: null }), null);
  });
  it('CONCAT is NULL when any argument is NULL', () => {
    assert.equal(value("CONCAT(a, '-', b)", { a: 'x', b: 'y' }), 'x-y');
    assert.equal(value("CONCAT(a, '-', b)", { a: 'x', b: null }), null);
    assert.equal(value("CONCAT(a, '-', b)", { a: 'x' }), null);
    assert.equal(value('CONCAT(a, b)', { a: 'n', b: 1 }), 'n1');
    assert.equal(value('CONCAT(a)', { a: 'only' }), 'only');
    assert.equal(value('CONCAT(a, b)', { a: 'x', b: true }), 'xTRUE');
  });
});

describe('COALESCE and NULLIF', () => {
  it('COALESCE returns the first non-NULL argument', () => {
    assert.equal(value('COALESCE(a, b, 0)', { a: null, b: 2 }), 2);
    assert.equal(value('COALESCE(a, b, 0)', {}), 0);
    assert.equal(value('COALESCE(a, b)', {}), null);
    assert.equal(value('COALESCE(a, 1)', { a: 0 }), 0, '0 is not NULL');
    assert.equal(value("COALESCE(a, '')", { a: false }), false);
  });
  it('NULLIF', () => {
    assert.equal(value('NULLIF(a, 0)', { a: 0 }), null);
    assert.equal(value('NULLIF(a, 0)', { a: 3 }), 3);
    assert.equal(value('NULLIF(a, 0)', { a: null }), null);
  });
});

describe('numeric functions', () => {
  it('ABS', () => {
    assert.equal(value('ABS(a)', { a: -3.5 }), 3.5);
    assert.equal(value('ABS(a)', { a: 2 }), 2);
    assert.equal(value('ABS(a)', { a: null }), null);
    assert.equal(value('ABS(a)', { a: '-4' }), 4);
  });
  it('ROUND is HALF_UP on the decimal value', () => {
    assert.equal(value('ROUND(a)', { a: 2.5 }), 3);
    assert.equal(value('ROUND(a)', { a: -2.5 }), -3);
    assert.equal(value('ROUND(a)', { a: 2.4 }), 2);
    assert.equal(value('ROUND(a, 2)', { a: 1.005 }), 1.01);
    assert.equal(value('ROUND(a, 1)', { a: 1.25 }), 1.3);
    assert.equal(value('ROUND(a, 2)', { a: 3.14159 }), 3.14);
    assert.equal(value('ROUND(a, -2)', { a: 1250 }), 1300);
    assert.equal(value('ROUND(a, 0)', { a: -0.4 }), 0);
    assert.ok(!Object.is(value('ROUND(a, 0)', { a: -0.4 }), -0), 'no negative zero');
    assert.equal(value('ROUND(a, 2)', { a: 1e-7 }), 0);
    assert.equal(value('ROUND(a)', { a: null }), null);
    assert.equal(value('ROUND(a, d)', { a: 1.5, d: null }), null);
  });
  it('FLOOR / CEIL / CEILING', () => {
    assert.equal(value('FLOOR(a)', { a: 2.7 }), 2);
    assert.equal(value('FLOOR(a)', { a: -2.1 }), -3);
    assert.equal(value('CEIL(a)', { a: 2.1 }), 3);
    assert.equal(value('CEILING(a)', { a: -2.7 }), -2);
    assert.ok(!Object.is(value('CEIL(a)', { a: -0.5 }), -0), 'no negative zero');
    assert.equal(value('FLOOR(a)', { a: null }), null);
    assert.equal(value('CEIL(a)', {}), null);
  });
  it('MOD', () => {
    assert.equal(value('MOD(a, 3)', { a: 10 }), 1);
    assert.equal(value('MOD(a, 3)', { a: -10 }), -1, 'sign of the dividend, as Java');
    assert.throws(() => value('MOD(a, 0)', { a: 10 }), /BIGINT modulo by zero/, 'Flink fails the job');
    assert.equal(value('MOD(a, 0)', { a: 1.5 }), null, 'DOUBLE: NULL in Weir (NaN in Flink)');
    assert.equal(value('MOD(a, 3)', { a: null }), null);
  });
  it('is case-insensitive', () => {
    assert.equal(value('abs(a) + Floor(b)', { a: -1, b: 1.5 }), 2);
  });
});

describe('CAST', () => {
  it('to INT / INTEGER / BIGINT truncates toward zero', () => {
    assert.equal(value('CAST(a AS INT)', { a: 3.9 }), 3);
    assert.equal(value('CAST(a AS INTEGER)', { a: -3.9 }), -3);
    assert.equal(value('CAST(a AS BIGINT)', { a: '42' }), 42);
    assert.equal(value('CAST(a AS INT)', { a: ' 7 ' }), 7);
    assert.equal(value('CAST(a AS INT)', { a: true }), 1);
    assert.throws(
      () => value('CAST(a AS INT)', { a: '12x' }),
      /CAST\('12x' AS INT\) failed/,
      'Flink 1.15+ fails the job',
    );
    assert.equal(value('TRY_CAST(a AS INT)', { a: '12x' }), null, 'TRY_CAST gives NULL');
    assert.equal(value('TRY_CAST(a AS INT)', { a: '12' }), 12);
    assert.equal(value('CAST(a AS INT)', { a: null }), null);
  });
  it('to DOUBLE / FLOAT / DECIMAL', () => {
    assert.equal(value('CAST(a AS DOUBLE)', { a: '2.5' }), 2.5);
    assert.equal(value('CAST(a AS FLOAT)', { a: 3 }), 3);
    assert.equal(value('CAST(a AS DECIMAL(10, 2))', { a: 1.005 }), 1.01);
    assert.equal(value('CAST(a AS DECIMAL)', { a: 2.5 }), 3, 'DECIMAL is DECIMAL(10, 0)');
    assert.throws(() => value('CAST(a AS DOUBLE)', { a: 'abc' }), /CAST\('abc' AS DOUBLE\) failed/);
    assert.equal(value('TRY_CAST(a AS DOUBLE)', { a: 'abc' }), null);
    assert.equal(value('CAST(a AS DECIMAL(4, 2))', { a: 123.4 }), null, 'overflow is NULL, as Flink');
    assert.equal(value('CAST(a AS DECIMAL(5, 1))', {}), null);
  });
  it('to STRING / VARCHAR / CHAR', () => {
    assert.equal(value('CAST(a AS STRING)', { a: 12 }), '12');
    assert.equal(value('CAST(a AS VARCHAR)', { a: 1.5 }), '1.5');
    assert.equal(value('CAST(a AS VARCHAR(3))', { a: 'abcdef' }), 'abc');
    assert.equal(value('CAST(a AS CHAR(4))', { a: 'ab' }), 'ab  ');
    assert.equal(value('CAST(a AS STRING)', { a: true }), 'TRUE');
    assert.equal(value('CAST(a AS STRING)', { a: null }), null);
  });
  it('to BOOLEAN', () => {
    assert.equal(value('CAST(a AS BOOLEAN)', { a: 'true' }), true);
    assert.equal(value('CAST(a AS BOOLEAN)', { a: 'FALSE' }), false);
    assert.equal(value('CAST(a AS BOOLEAN)', { a: 0 }), false);
    assert.equal(value('CAST(a AS BOOLEAN)', { a: 2 }), true);
    assert.equal(value('CAST(a AS BOOLEAN)', { a: 'yes' }), true);
    assert.throws(() => value('CAST(a AS BOOLEAN)', { a: 'maybe' }), /not a valid BOOLEAN/);
    assert.equal(value('TRY_CAST(a AS BOOLEAN)', { a: 'maybe' }), null);
    assert.equal(value('CAST(a AS BOOLEAN)', {}), null);
  });
  it('to TIMESTAMP gives an ISO-8601 UTC string', () => {
    assert.equal(value('CAST(a AS TIMESTAMP)', { a: 0 }), '1970-01-01T00:00:00.000Z');
    assert.equal(value('CAST(a AS TIMESTAMP(3))', { a: '2026-03-04 05:06:07.890' }), '2026-03-04T05:06:07.890Z');
    assert.equal(value('CAST(a AS TIMESTAMP)', { a: '2026-03-04T05:06:07+01:00' }), '2026-03-04T04:06:07.000Z');
    assert.equal(value('CAST(a AS TIMESTAMP)', { a: '2026-03-04' }), '2026-03-04T00:00:00.000Z');
    assert.throws(() => value('CAST(a AS TIMESTAMP)', { a: 'soon' }), /not a valid TIMESTAMP/);
    assert.equal(value('TRY_CAST(a AS TIMESTAMP)', { a: 'soon' }), null);
    assert.equal(value('CAST(a AS TIMESTAMP)', { a: null }), null);
    assert.equal(value("CAST(a AS TIMESTAMP) >= TIMESTAMP '2026-01-01 00:00:00'", { a: '2026-06-01 00:00:00' }), true);
  });
  it('composes with other expressions', () => {
    assert.equal(value('CAST(a AS INT) + CAST(b AS INT)', { a: '1', b: '2.7' }), 3);
    assert.equal(value("CAST(CAST(a AS INT) AS STRING) || 'x'", { a: 5.5 }), '5x');
  });
});

describe('more Flink functions', () => {
  it('TRIM / LTRIM / RTRIM remove spaces', () => {
    assert.equal(value('TRIM(s)', { s: '  a b  ' }), 'a b');
    assert.equal(value('LTRIM(s)', { s: '  a ' }), 'a ');
    assert.equal(value('RTRIM(s)', { s: '  a ' }), '  a');
    assert.equal(value('TRIM(s)', { s: null }), null);
  });
  it('REPLACE', () => {
    assert.equal(value("REPLACE(s, 'a', 'xy')", { s: 'banana' }), 'bxynxynxy');
    assert.equal(value("REPLACE(s, '.', '')", { s: 'a.b.c' }), 'abc', 'not a regex');
    assert.equal(value("REPLACE(s, 'a', b)", { s: 'a', b: null }), null);
  });
  it('POWER / SQRT', () => {
    assert.equal(value('POWER(a, 2)', { a: 3 }), 9);
    assert.equal(value('SQRT(a)', { a: 16 }), 4);
    assert.equal(value('SQRT(a)', { a: -1 }), null, 'NaN is not a JSON value');
    assert.equal(value('POWER(a, 2)', { a: null }), null);
  });
  it('IF', () => {
    assert.equal(value("IF(a > 1, 'big', 'small')", { a: 2 }), 'big');
    assert.equal(value("IF(a > 1, 'big', 'small')", { a: null }), 'small', 'UNKNOWN takes the else branch');
  });
});

describe('nested values', () => {
  it('a[i] is 1-based on arrays, m[key] reads objects', () => {
    assert.equal(value('a[1]', { a: [10, 20] }), 10);
    assert.equal(value('a[2] + 1', { a: [10, 20] }), 21);
    assert.equal(value('a[3]', { a: [10, 20] }), null);
    assert.equal(value('a[0]', { a: [10, 20] }), null);
    assert.equal(value("m['k']", { m: { k: 'v' } }), 'v');
    assert.equal(value("m['k']['j']", { m: { k: { j: 1 } } }), 1);
    assert.equal(value("m['toString']", { m: {} }), null);
    assert.equal(value('a[1]', { a: null }), null);
    assert.equal(value('a[1]', { a: 'str' }), null);
  });
});
