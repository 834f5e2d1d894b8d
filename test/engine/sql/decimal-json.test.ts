// A Decimal that reaches a JSON writer (file sink, Kafka) is written as its number: its unscaled
// digits are a bigint, which JSON.stringify cannot serialize on its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from '../../../engine/sql/decimal.ts';

test('JSON.stringify writes a Decimal as its number, in a row and alone', () => {
  assert.equal(JSON.stringify({ price: new Decimal(12345n, 2, 10) }), '{"price":123.45}');
  assert.equal(JSON.stringify(new Decimal(-5n, 3, 4)), '-0.005');
  assert.equal(JSON.stringify([new Decimal(0n, 2, 3)]), '[0]');
});
