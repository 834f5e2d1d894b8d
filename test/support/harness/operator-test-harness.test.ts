/**
 * The operator test harness itself, driven by a small keyed probe operator (counts per key in keyed
 * state, emits the counts of its key groups on each watermark, keeps a batch counter as operator
 * state): what it records, how it restores, and how the parallel harness routes and rescales.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedParallelHarness, OperatorTestHarness } from './index.ts';
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  Row,
  StreamOperator,
} from '../../../engine/contracts/operator.ts';
import type { StateTable } from '../../../engine/contracts/keyed-state.ts';
import { keyGroupOf, stateKey } from '../../../engine/state/keygroups.ts';

class CountPerKey implements StreamOperator {
  ctx!: OperatorContext;
  out!: OperatorOutput;
  table!: StateTable<number>;
  batches = 0;
  restoredStates: unknown[] | undefined;

  async open(ctx: OperatorContext, out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    this.ctx = ctx;
    this.out = out;
    this.table = ctx.state!.table<number>('counts');
    this.restoredStates = restored?.operator;
    this.batches = (restored?.operator ?? []).reduce<number>((n, s) => n + (s as { batches: number }).batches, 0);
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    this.batches++;
    const keys = batch.rows.map((r) => {
      const g = keyGroupOf(String(r.k), this.ctx.maxParallelism);
      const range = this.ctx.keyGroupRange;
      if (g < range.start || g > range.end) throw new Error(`key ${String(r.k)} routed to the wrong subtask`);
      return stateKey(g, String(r.k));
    });
    const old = await this.table.getMany(keys);
    const next = new Map<string, number>();
    keys.forEach((k, i) => next.set(k, (next.get(k) ?? old[i] ?? 0) + 1));
    await this.table.writeMany([...next]);
  }

  async processWatermark(watermark: number): Promise<void> {
    const rows: Row[] = [];
    for await (const [k, n] of this.table.scan()) rows.push({ k: k.slice(5), n });
    rows.sort((a, b) => (String(a.k) < String(b.k) ? -1 : 1)); // scan order is key group first
    this.out.emit({ rows, ts: rows.map(() => watermark) });
    this.out.emitWatermark(watermark);
  }

  async snapshotState(id: number): Promise<OperatorSnapshot> {
    return { operator: { batches: this.batches }, keyed: this.ctx.state!.snapshot(id) };
  }

  async notifyCheckpointComplete(): Promise<void> {}
  async endInput(): Promise<void> {}
  async close(): Promise<void> {}
}

const batch = (...keys: string[]): RecordBatch => ({ rows: keys.map((k) => ({ k })), ts: keys.map(() => 1) });

test('records emitted batches per port and watermarks in emission order', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  await h.processBatch(batch('a', 'b', 'a'));
  await h.processWatermark(10);
  assert.deepEqual(h.events, [
    {
      kind: 'records',
      port: 'out',
      rows: [
        { k: 'a', n: 2 },
        { k: 'b', n: 1 },
      ],
      ts: [10, 10],
    },
    { kind: 'watermark', watermark: 10 },
  ]);
  assert.deepEqual(h.output('late'), []);
  assert.deepEqual(h.watermarks(), [10]);
  h.clearOutput();
  assert.deepEqual(h.events, []);
  await h.close();
});

test('an emitted batch whose rows and timestamps differ in length is an error', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  const op = h.operator as CountPerKey;
  assert.throws(() => op.out.emit({ rows: [{}], ts: [] }), /1 rows but 0 timestamps/);
  await h.close();
});

test('snapshot and restore into a fresh operator with a fresh backend: keyed and operator state come back', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  await h.processBatch(batch('a', 'b'));
  await h.processBatch(batch('a'));
  const snap = await h.snapshot(7);
  await h.processBatch(batch('a', 'a', 'a')); // after the snapshot: must not be in it
  await h.close();
  assert.equal(snap.checkpointId, 7);
  const r = await OperatorTestHarness.open(() => new CountPerKey(), {}, [snap]);
  assert.notEqual(r.backend, h.backend);
  assert.deepEqual((r.operator as CountPerKey).restoredStates, [{ batches: 2 }]);
  await r.processWatermark(1);
  assert.deepEqual(
    r.output().map((o) => o.row),
    [
      { k: 'a', n: 2 },
      { k: 'b', n: 1 },
    ],
  );
  await r.close();
});

test('the parallel harness routes by key group and rescales 1 -> 3 -> 2 without losing or duplicating state', async () => {
  const keys = Array.from({ length: 60 }, (_, i) => `key-${i}`);
  const keyOf = (row: Row): string => String(row.k);
  const p1 = await KeyedParallelHarness.open(() => new CountPerKey(), { parallelism: 1, keyOf });
  await p1.processBatch(batch(...keys, ...keys.slice(0, 10)));
  const s1 = await p1.snapshot(1);
  const p3 = await KeyedParallelHarness.open(() => new CountPerKey(), { parallelism: 3, keyOf }, s1);
  await p3.processBatch(batch(...keys.slice(0, 30)));
  for (const s of p3.subtasks) {
    const ops = s.operator as CountPerKey;
    assert.deepEqual(ops.restoredStates, [{ batches: 1 }], 'every new subtask sees all old operator states');
  }
  const s3 = await p3.snapshot(2);
  const p2 = await KeyedParallelHarness.open(() => new CountPerKey(), { parallelism: 2, keyOf }, s3);
  await p2.processWatermark(5);
  const counts = new Map(p2.output().map((o) => [o.row.k as string, o.row.n as number]));
  assert.equal(counts.size, 60);
  for (const [i, k] of keys.entries()) assert.equal(counts.get(k), 1 + (i < 10 ? 1 : 0) + (i < 30 ? 1 : 0), k);
  for (const s of p2.subtasks) assert.ok(s.output().length > 0, 'both subtasks own some keys');
  await p1.close();
  await p3.close();
  await p2.close();
});
