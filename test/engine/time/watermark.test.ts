/** Watermark generation (bounded out-of-orderness, idleness) and the per-channel valve. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedOutOfOrdernessWatermarks, IdlenessTimer } from '../../../engine/time/watermark-generator.ts';
import { WatermarkValve } from '../../../engine/time/watermark-valve.ts';

test('bounded out-of-orderness: maxTimestampSeen - maxOutOfOrderness - 1, never from an older timestamp', () => {
  const g = new BoundedOutOfOrdernessWatermarks(100);
  assert.equal(g.current(), null);
  g.observe([1000, 900, 1200, 1100]);
  assert.equal(g.current(), 1099);
  g.observe([1150]);
  assert.equal(g.current(), 1099, 'an out-of-order record does not move the watermark');
  g.observe([NaN, 2000]);
  assert.equal(g.current(), 1899);
  const restored = new BoundedOutOfOrdernessWatermarks(100, 2000);
  assert.equal(restored.current(), 1899, 'a restored source continues from its max timestamp');
});

test('idleness: a source without data for idleTimeout is idle until the next record', () => {
  const t = new IdlenessTimer(500, 0);
  assert.equal(t.check(499), false);
  assert.equal(t.check(500), true);
  assert.equal(t.check(900), false, 'reported once');
  assert.equal(t.activity(1000), true, 'back to active');
  assert.equal(new IdlenessTimer(null, 0).check(1e9), false);
});

test('valve: minimum over active channels, monotonic, waits for every channel', () => {
  const v = new WatermarkValve(3);
  assert.equal(v.onWatermark(0, 100), null, 'channels 1 and 2 have no watermark yet');
  assert.equal(v.onWatermark(1, 50), null);
  assert.equal(v.onWatermark(2, 70), 50);
  assert.equal(v.onWatermark(1, 200), 70);
  assert.equal(v.onWatermark(2, 60), null, 'a channel going back changes nothing');
  assert.equal(v.watermark, 70);
});

test('valve: an idle channel stops holding the watermark back; when all are idle nothing advances', () => {
  const v = new WatermarkValve(2);
  v.onWatermark(0, 100);
  assert.equal(v.onIdle(1, true), 100, 'channel 1 idle: channel 0 alone decides');
  assert.equal(v.allIdle, false);
  assert.equal(v.onIdle(0, true), null);
  assert.equal(v.allIdle, true);
  assert.equal(v.onWatermark(1, 40), null, 'back from idle below the current watermark: no regression');
  assert.equal(v.allIdle, false);
  assert.equal(v.onWatermark(0, 300), null, 'channel 1 (40) active again holds it');
  assert.equal(v.onWatermark(1, 250), 250);
});

test('valve: finished channels count as +Infinity; all finished gives +Infinity', () => {
  const v = new WatermarkValve(2, 10);
  assert.equal(v.watermark, 10, 'restored watermark');
  assert.equal(v.onWatermark(0, 5), null);
  assert.equal(v.onEnd(1), null, 'channel 0 still at 10');
  assert.equal(v.onWatermark(0, 20), 20);
  assert.equal(v.onEnd(0), Infinity);
});

test('valve: a finished channel and an idle one give +Infinity (the idle one no longer holds windows back)', () => {
  const v = new WatermarkValve(2);
  v.onWatermark(0, 100);
  assert.equal(v.onIdle(1, true), 100);
  assert.equal(v.onEnd(0), Infinity);
});
