import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bytes, clock, duration, rate, watermark } from '../../../renderer/src/live/format.ts';

describe('live formats', () => {
  it('durations, sizes, rates, clocks and watermarks read short and never NaN', () => {
    assert.equal(duration(1000), '1 s');
    assert.equal(duration(1500), '1.5 s');
    assert.equal(duration(38), '38 ms');
    assert.equal(duration(null), '—');
    assert.equal(duration(3_723_000), '1h 2m 3s');
    assert.equal(bytes(512), '512 B');
    assert.equal(bytes(1536), '1.5 KB');
    assert.equal(bytes(5 * 1024 * 1024), '5.0 MB');
    assert.equal(bytes(Number.NaN), '—');
    assert.equal(rate(0), '0/s');
    assert.equal(rate(1500), '1.5k/s');
    assert.equal(rate(42_000), '42k/s');
    assert.equal(clock(65_000), '1:05');
    assert.equal(clock(3_725_000), '1:02:05');
    assert.equal(watermark(null), 'none yet');
    assert.equal(watermark(Date.UTC(2023, 10, 14, 22, 13, 20, 5)), '22:13:20.005');
    assert.equal(watermark(8.64e15), '+∞ (end)');
  });
});
