/** Per-split watermarks combined as Flink's WatermarkOutputMultiplexer combines them (Kafka partitions). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SplitWatermarks } from '../../../engine/time/split-watermarks.ts';

test('the combined watermark is the minimum over the splits, each max - bound - 1', () => {
  const w = new SplitWatermarks(100, null);
  w.add('t:0', null, 0);
  w.add('t:1', null, 0);
  w.observe('t:0', 5000, 1);
  assert.deepEqual(w.combine(1), { watermark: null, idle: false }, 'a split without a timestamp holds it back');
  w.observe('t:1', 2000, 2);
  assert.deepEqual(w.combine(2), { watermark: 1899, idle: false });
  w.observe('t:1', 1000, 3);
  assert.deepEqual(w.combine(3), { watermark: 1899, idle: false }, 'an older record moves nothing');
  w.observe('t:1', 9000, 4);
  assert.deepEqual(w.combine(4), { watermark: 4899, idle: false }, 'now the other partition is the slowest');
});

test('an idle split stops holding the watermark back until its next record; all idle = the reader is idle', () => {
  const w = new SplitWatermarks(0, 1000);
  w.add('t:0', null, 0);
  w.add('t:1', null, 0);
  w.observe('t:0', 5000, 500);
  assert.equal(w.combine(900).watermark, null, 't:1 has been quiet for 900 ms only');
  assert.deepEqual(w.combine(1000), { watermark: 4999, idle: false }, 't:1 is idle after 1000 ms');
  w.observe('t:1', 3000, 1100);
  assert.deepEqual(w.combine(1100), { watermark: 2999, idle: false }, 'a record makes it active again');
  assert.deepEqual(w.combine(2600), { watermark: null, idle: true }, 'both quiet for the timeout: idle');
});

test('without an idle timeout a quiet split holds the watermark forever (Flink without withIdleness)', () => {
  const w = new SplitWatermarks(0, null);
  w.add('t:0', null, 0);
  w.add('t:1', null, 0);
  w.observe('t:0', 5000, 0);
  assert.equal(w.combine(1e9).watermark, null);
});

test('no split at all (more subtasks than partitions) is idle; a finished split holds nothing back', () => {
  const w = new SplitWatermarks(0, null);
  assert.deepEqual(w.combine(0), { watermark: null, idle: true });
  w.add('t:0', null, 0);
  w.add('t:1', 700, 0);
  w.observe('t:0', 100, 0);
  assert.equal(w.combine(0).watermark, 99);
  w.finish('t:0');
  assert.equal(w.combine(0).watermark, 699, 'the restored max of t:1 alone');
  assert.equal(w.maxTimestamp('t:0'), 100, 'a finished split keeps its max for the checkpoint');
});
