import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkDuration,
  checkSize,
  formatDuration,
  formatSize,
  parseDuration,
  parseSize,
  UnitError,
} from '../../../engine/graph/units.ts';

test('durations: every unit, plain numbers and unitless strings are milliseconds', () => {
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('1s'), 1000);
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration('1d'), 86_400_000);
  assert.equal(parseDuration(250), 250);
  assert.equal(parseDuration('250'), 250);
  assert.equal(parseDuration('0s'), 0);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration(' 10 S '), 10_000);
  assert.equal(parseDuration('3MS'), 3);
});

test('sizes: b, kb, mb, gb in powers of 1024, case-insensitive; numbers are bytes', () => {
  assert.equal(parseSize('5mb'), 5 * 1024 * 1024);
  assert.equal(parseSize('512kb'), 512 * 1024);
  assert.equal(parseSize('1GB'), 1024 ** 3);
  assert.equal(parseSize('100b'), 100);
  assert.equal(parseSize(4096), 4096);
  assert.equal(parseSize('0.5kb'), 512);
});

test('bad durations and sizes name the value and the allowed units', () => {
  assert.throws(
    () => parseDuration('5x'),
    (e: unknown) =>
      e instanceof UnitError && e.message === "invalid duration '5x': unknown unit 'x' (allowed: ms, s, m, h, d)",
  );
  assert.throws(
    () => parseDuration('soon'),
    /invalid duration 'soon': expected a number followed by one of ms, s, m, h, d/,
  );
  assert.throws(() => parseDuration(-1), /non-negative/);
  assert.throws(() => parseDuration(Number.NaN), /non-negative/);
  assert.throws(() => parseSize('5tb'), /invalid size '5tb': unknown unit 'tb' \(allowed: b, kb, mb, gb\)/);
  assert.throws(() => parseSize('-1mb'), /invalid size '-1mb'/);
  const r = checkDuration(true);
  assert.equal(r.ok, false);
  assert.equal(checkSize('1 mb').ok, true);
});

test('formatting picks the largest exact unit and round-trips', () => {
  assert.equal(formatDuration(1000), '1s');
  assert.equal(formatDuration(90_000), '90s');
  assert.equal(formatDuration(1500), '1500ms');
  assert.equal(formatDuration(0), '0ms');
  assert.equal(formatDuration(600_000), '10m');
  assert.equal(formatDuration(86_400_000 * 2), '2d');
  assert.equal(formatSize(5 * 1024 * 1024), '5mb');
  assert.equal(formatSize(1000), '1000b');
  for (const ms of [0, 1, 999, 1000, 61_000, 3_600_000, 123_456_789])
    assert.equal(parseDuration(formatDuration(ms)), ms);
  for (const b of [0, 1, 1024, 1536, 5 * 1024 ** 2, 3 * 1024 ** 3]) assert.equal(parseSize(formatSize(b)), b);
});
