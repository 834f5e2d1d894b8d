/** Channels: bounded by batches (back-pressure), control events always accepted and kept in order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputGate, OutputSet } from '../../../../engine/runtime/task/channel.ts';

const batch = (n: number) => ({ kind: 'batch' as const, batch: { rows: [{ n }], ts: [n] } });

test('a full channel blocks its producer until the consumer takes a batch', async () => {
  const gate = new InputGate();
  const ch = gate.addChannel(2, 'a#0');
  const out = new OutputSet();
  out.add(ch);
  ch.push(batch(1));
  assert.equal(out.writable(), true);
  ch.push(batch(2));
  assert.equal(out.writable(), false);
  assert.equal(out.backPressure(), 1);
  let released = false;
  const wait = out.waitWritable().then(() => {
    released = true;
  });
  ch.push({ kind: 'watermark', watermark: 5 }); // control events never block
  await new Promise((r) => setImmediate(r));
  assert.equal(released, false);
  assert.deepEqual(gate.poll()!.item, batch(1));
  await wait;
  assert.equal(released, true);
  assert.deepEqual([gate.poll()!.item.kind, gate.poll()!.item.kind, gate.poll()], ['batch', 'watermark', null]);
});

test('the gate polls channels round-robin and skips blocked ones', () => {
  const gate = new InputGate();
  const a = gate.addChannel(8, 'a#0');
  const b = gate.addChannel(8, 'b#0');
  a.push(batch(1));
  a.push(batch(2));
  b.push(batch(10));
  b.push(batch(11));
  const order = () => {
    const r = gate.poll();
    return r ? (r.item.kind === 'batch' ? r.item.batch.rows[0].n : r.item.kind) : null;
  };
  assert.deepEqual([order(), order()], [1, 10]);
  gate.blocked[0] = true;
  assert.deepEqual([order(), order()], [11, null]);
  gate.blocked[0] = false;
  assert.equal(order(), 2);
});
