/**
 * Barrier alignment inside one task subtask, with a fast and a slow input channel: records of the
 * fast input that follow barrier n are not part of snapshot n (exactly-once); at-least-once does
 * not block them. Also: an ended channel does not block alignment, and watermarks merge by minimum.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputGate } from '../../../../engine/runtime/task/channel.ts';
import { ChainLink, OperatorChain } from '../../../../engine/runtime/task/task-chain.ts';
import { TaskOutput } from '../../../../engine/runtime/task/task-output.ts';
import { TaskSubtask, type SubtaskEnv } from '../../../../engine/runtime/task/task-subtask.ts';
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  StreamOperator,
} from '../../../../engine/contracts/operator.ts';
import type { CheckpointAck } from '../../../../engine/contracts/checkpoint.ts';

class RecordingOperator implements StreamOperator {
  seen: number[] = [];
  watermarks: number[] = [];
  ended = false;
  async open(_c: OperatorContext, _o: OperatorOutput): Promise<void> {}
  async processBatch(b: RecordBatch): Promise<void> {
    for (const r of b.rows) this.seen.push(r.id as number);
  }
  async processWatermark(w: number): Promise<void> {
    this.watermarks.push(w);
  }
  async snapshotState(): Promise<OperatorSnapshot> {
    return { operator: { seen: [...this.seen] } };
  }
  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {
    this.ended = true;
  }
  async close(): Promise<void> {}
}

const batch = (...ids: number[]): RecordBatch => ({ rows: ids.map((id) => ({ id })), ts: ids.map(() => NaN) });
const tick = () => new Promise<void>((r) => setImmediate(r));

function setup(exactlyOnce: boolean) {
  const gate = new InputGate();
  const fast = gate.addChannel(4, 'fast#0');
  const slow = gate.addChannel(4, 'slow#0');
  const op = new RecordingOperator();
  const acks: CheckpointAck[] = [];
  let finished = false;
  const env: SubtaskEnv = {
    exactlyOnce,
    checkpointing: true,
    memoryStateLimit: null,
    ack: (a) => acks.push(a),
    decline: (id, reason) => assert.fail(`declined ${id}: ${reason}`),
    exhausted: () => undefined,
    finished: () => {
      finished = true;
    },
    currentBarrier: () => null,
  };
  const output = new TaskOutput([], 0, 128);
  const task = new TaskSubtask(
    0,
    0,
    1,
    new OperatorChain([new ChainLink('op', op)], output),
    output,
    env,
    gate,
    [0, 1],
    null,
    -Infinity,
    0,
  );
  const done = task.run();
  return { fast, slow, op, acks, done, isFinished: () => finished };
}

const barrier = (id: number) => ({
  kind: 'barrier' as const,
  barrier: { id, timestamp: Date.now(), kind: 'checkpoint' as const },
});

test('exactly-once: post-barrier records of the fast input wait and are not in snapshot n', async () => {
  const t = setup(true);
  t.fast.push({ kind: 'batch', batch: batch(1) });
  t.fast.push(barrier(1));
  t.fast.push({ kind: 'batch', batch: batch(2) });
  t.slow.push({ kind: 'batch', batch: batch(101) });
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual(
    t.op.seen.sort((a, b) => a - b),
    [1, 101],
    'record 2 is held back by alignment',
  );
  t.slow.push({ kind: 'batch', batch: batch(102) });
  t.slow.push(barrier(1));
  t.slow.push({ kind: 'batch', batch: batch(103) });
  for (let i = 0; i < 10; i++) await tick();
  assert.equal(t.acks.length, 1);
  const snap = (t.acks[0].states[0].operator as { state: { seen: number[] } }).state.seen.sort((a, b) => a - b);
  assert.deepEqual(snap, [1, 101, 102], 'snapshot 1 holds exactly the pre-barrier records of both inputs');
  assert.ok(t.acks[0].stats[0].alignmentDuration >= 0);
  t.fast.push({ kind: 'end' });
  t.slow.push({ kind: 'end' });
  await t.done;
  assert.deepEqual(
    t.op.seen.sort((a, b) => a - b),
    [1, 2, 101, 102, 103],
  );
  assert.ok(t.op.ended && t.isFinished());
  assert.deepEqual(t.op.watermarks, [Infinity], 'end of input brings the final +Infinity watermark');
});

test('at-least-once: nothing is blocked, so the snapshot may include post-barrier records', async () => {
  const t = setup(false);
  t.fast.push(barrier(1));
  t.fast.push({ kind: 'batch', batch: batch(2) });
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual(t.op.seen, [2]);
  t.slow.push(barrier(1));
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual((t.acks[0].states[0].operator as { state: { seen: number[] } }).state.seen, [2]);
  t.fast.push({ kind: 'end' });
  t.slow.push({ kind: 'end' });
  await t.done;
});

test('a channel that ended does not block alignment; stale barriers are dropped', async () => {
  const t = setup(true);
  t.slow.push({ kind: 'end' });
  t.fast.push(barrier(3));
  for (let i = 0; i < 5; i++) await tick();
  assert.equal(t.acks.length, 1);
  assert.equal(t.acks[0].checkpointId, 3);
  t.fast.push(barrier(2));
  t.fast.push({ kind: 'end' });
  await t.done;
  assert.equal(t.acks.length, 1, 'barrier 2 after 3 is stale');
});

test('watermarks: the operator sees the minimum over its input channels', async () => {
  const t = setup(true);
  t.fast.push({ kind: 'watermark', watermark: 500 });
  t.slow.push({ kind: 'watermark', watermark: 200 });
  t.slow.push({ kind: 'watermark', watermark: 800 });
  t.fast.push({ kind: 'idle', idle: true });
  t.slow.push({ kind: 'watermark', watermark: 900 });
  t.fast.push({ kind: 'end' });
  t.slow.push({ kind: 'end' });
  await t.done;
  // Channels are polled round-robin: 500|200 -> 200; fast goes idle, so slow alone decides (800, 900).
  assert.deepEqual(t.op.watermarks, [200, 800, 900, Infinity]);
});
