/** Flink's implicit casts for INSERT INTO (LogicalTypeCasts.supportsImplicitCast, Flink 1.20), case by case. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { castsImplicitly, parseFlinkType } from '../../../engine/graph/flink-implicit-cast.ts';

function casts(from: string, to: string): boolean {
  const s = parseFlinkType(from);
  const t = parseFlinkType(to);
  assert.ok(s && t, `${from} -> ${to} parse`);
  return castsImplicitly(s, t);
}

test('numeric widening is implicit, narrowing and leaving the numbers are not', () => {
  for (const [from, to] of [
    ['INT', 'BIGINT'],
    ['SMALLINT', 'INT'],
    ['BIGINT', 'DECIMAL(38, 18)'],
    ['DOUBLE', 'DECIMAL(10, 2)'],
    ['DECIMAL(10, 2)', 'DECIMAL(5, 0)'],
    ['BIGINT', 'FLOAT'],
    ['DECIMAL(10, 2)', 'DOUBLE'],
  ])
    assert.equal(casts(from, to), true, `${from} -> ${to}`);
  for (const [from, to] of [
    ['BIGINT', 'INT'],
    ['DOUBLE', 'BIGINT'],
    ['DECIMAL(10, 2)', 'BIGINT'],
    ['DOUBLE', 'FLOAT'],
    ['BIGINT', 'STRING'],
    ['STRING', 'INT'],
    ['BOOLEAN', 'INT'],
  ])
    assert.equal(casts(from, to), false, `${from} -> ${to}`);
});

test('strings: CHAR into VARCHAR and STRING, not back; lengths are not compared', () => {
  assert.equal(casts('CHAR(3)', 'STRING'), true);
  assert.equal(casts('VARCHAR(100)', 'VARCHAR(5)'), true);
  assert.equal(casts('STRING', 'CHAR(3)'), false);
  assert.equal(casts('STRING', 'BOOLEAN'), false);
});

test('time: TIMESTAMP and TIMESTAMP_LTZ into each other, DATE and TIME from TIMESTAMP, never into text', () => {
  assert.equal(casts('TIMESTAMP(3)', 'TIMESTAMP(6)'), true);
  assert.equal(casts('TIMESTAMP(3) NOT NULL', 'TIMESTAMP_LTZ(6)'), true);
  assert.equal(casts('TIMESTAMP_LTZ(3)', 'TIMESTAMP(3)'), true);
  assert.equal(casts('TIMESTAMP(3) WITH LOCAL TIME ZONE', 'TIMESTAMP(6) WITHOUT TIME ZONE'), true);
  assert.equal(casts('TIMESTAMP(3)', 'DATE'), true);
  assert.equal(casts('TIMESTAMP(3)', 'TIME(6)'), true);
  assert.equal(casts('DATE', 'TIMESTAMP(3)'), false);
  assert.equal(casts('TIMESTAMP(3)', 'STRING'), false);
  assert.equal(casts('TIMESTAMP_LTZ(3)', 'STRING'), false);
  assert.equal(casts('STRING', 'TIMESTAMP(3)'), false);
  assert.equal(casts('BIGINT', 'TIMESTAMP(3)'), false);
});

test('arrays cast by element; other constructed types only to themselves', () => {
  assert.equal(casts('ARRAY<INT>', 'ARRAY<BIGINT>'), true);
  assert.equal(casts('ARRAY<STRING>', 'ARRAY<INT>'), false);
  assert.equal(casts('ARRAY<INT>', 'STRING'), false);
  assert.equal(casts('MAP<STRING, INT>', 'STRING'), false);
  assert.equal(casts('ROW<a INT>', 'ROW<a INT>'), true);
});

test('what is no Flink type does not parse; NOT NULL is read off', () => {
  assert.equal(parseFlinkType('UNKNOWN'), null);
  assert.equal(parseFlinkType('ANY'), null);
  assert.equal(parseFlinkType('ARRAY<UNKNOWN>'), null);
  assert.deepEqual(parseFlinkType('TIMESTAMP(3) NOT NULL'), {
    root: 'TIMESTAMP',
    text: 'TIMESTAMP(3)',
    nullable: false,
  });
  assert.equal(parseFlinkType('bigint')?.root, 'BIGINT');
});
