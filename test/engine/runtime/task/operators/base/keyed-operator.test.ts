// KeyedOperator's rules (engine/runtime/task/operators/base/keyed-operator.ts), proven on a small
// operator of its own: per key it counts rows, holds the counts back in memory until a snapshot or
// a timer needs them, and fires each key 10 ms after its latest row with the count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RecordBatch } from '../../../../../../engine/contracts/operator.ts';
import type { KeyedStateBackend, StateTable } from '../../../../../../engine/contracts/keyed-state.ts';
import { KeyedOperator } from '../../../../../../engine/runtime/task/operators/base/keyed-operator.ts';
import { ownedStateKey } from '../../../../../../engine/runtime/task/operators/relational/keyed-support.ts';
import { OperatorTestHarness, type HarnessSnapshot } from '../../../../../support/harness/index.ts';

interface Count {
  k: string;
  n: number;
  t: number;
}

class CountPerKey extends KeyedOperator {
  private table!: StateTable<Count>;
  /** Counts not yet in keyed state: prepareSnapshot and onTimers must write them first. */
  private readonly held = new Map<string, Count>();
  readonly calls: string[] = [];

  constructor() {
    super("count 'op'");
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    this.table = state.table<Count>('count');
    for await (const [sk, c] of this.table.scan()) this.timers.push(c.t + 10, sk);
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    for (let i = 0; i < batch.rows.length; i++) {
      const t = batch.ts[i];
      if (Number.isNaN(t)) throw this.noEventTime();
      if (t <= this.latenessWatermark(batch.sourceWatermarks, i)) {
        this.ctx.metrics.lateRecords(1);
        continue;
      }
      const k = String(batch.rows[i].k);
      const sk = ownedStateKey(this.ctx, this.what, k);
      const c = this.held.get(sk) ?? (await this.table.getMany([sk]))[0] ?? { k, n: 0, t };
      c.n++;
      c.t = Math.max(c.t, t);
      this.held.set(sk, c);
      this.timers.push(c.t + 10, sk);
    }
  }

  private async writeHeld(): Promise<void> {
    await this.table.writeMany([...this.held]);
    this.held.clear();
  }

  protected override async prepareSnapshot(): Promise<void> {
    this.calls.push('prepareSnapshot');
    await this.writeHeld();
  }

  protected override async onTimers(due: string[], watermark: number): Promise<void> {
    this.calls.push(`onTimers ${watermark}`);
    await this.writeHeld();
    const counts = await this.table.getMany(due);
    const fired: Array<readonly [string, undefined]> = [];
    const rows = [];
    const ts = [];
    for (const [j, c] of counts.entries()) {
      if (c === undefined || c.t + 10 > watermark) continue; // a stale timer: the key got a later row
      rows.push({ k: c.k, n: c.n });
      ts.push(c.t + 10);
      fired.push([due[j], undefined]);
    }
    await this.table.writeMany(fired);
    if (rows.length > 0) this.out.emit({ rows, ts });
  }
}

const rows = (...keysAndTimes: Array<[string, number]>): RecordBatch => ({
  rows: keysAndTimes.map(([k]) => ({ k })),
  ts: keysAndTimes.map(([, t]) => t),
});

test('open refuses to run without keyed state, naming the node', async () => {
  await assert.rejects(
    OperatorTestHarness.open(() => new CountPerKey(), { keyed: false }),
    /^Error: count 'op' needs keyed state, but the runtime gave it none$/,
  );
});

test('a watermark is stored, then due timers fire, then it is forwarded; one that does not advance is dropped', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  await h.processBatch(rows(['a', 100], ['b', 105], ['a', 101]));
  await h.processWatermark(50);
  await h.processWatermark(50); // not an advance: ignored
  await h.processWatermark(40); // a regression: ignored
  await h.processWatermark(111); // a's timer (101 + 10) is due, b's (115) is not
  await h.processBatch(rows(['b', 111], ['c', 120])); // b's 111 is late against watermark 111
  await h.processWatermark(Infinity);
  assert.deepEqual(h.events, [
    { kind: 'watermark', watermark: 50 },
    { kind: 'records', port: 'out', rows: [{ k: 'a', n: 2 }], ts: [111] },
    { kind: 'watermark', watermark: 111 },
    {
      kind: 'records',
      port: 'out',
      rows: [
        { k: 'b', n: 1 },
        { k: 'c', n: 1 },
      ],
      ts: [115, 130],
    },
    { kind: 'watermark', watermark: Infinity },
  ]);
  assert.equal(h.lateRecordsDropped, 1);
  await h.close();
});

test('a record without an event time is an error naming the node', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  await assert.rejects(h.processBatch(rows(['a', NaN])), /^Error: count 'op' received a record without an event time/);
  await h.close();
});

test('the snapshot holds the watermark (JSON, no infinities) and the held-back state', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  const op = h.operator as CountPerKey;
  assert.deepEqual((await h.snapshot(1)).operator, { watermark: null }, '-Infinity before any watermark');
  await h.processWatermark(70);
  await h.processBatch(rows(['a', 100]));
  const s2 = await h.snapshot(2);
  assert.deepEqual(s2.operator, { watermark: 70 });
  assert.deepEqual(op.calls, ['prepareSnapshot', 'prepareSnapshot'], 'held-back state written before each snapshot');
  await h.processWatermark(Infinity);
  assert.deepEqual((await h.snapshot(3)).operator, { watermark: Number.MAX_VALUE });
  await h.close();

  // The held-back count of `a` is in snapshot 2: restored, its timer fires.
  const r = await OperatorTestHarness.open(() => new CountPerKey(), {}, [s2]);
  await r.processWatermark(110);
  assert.deepEqual(r.output(), [{ row: { k: 'a', n: 1 }, ts: 110 }]);
  await r.close();
});

test('restored from several subtasks (a rescale), the watermark is the smallest of theirs', async () => {
  const snaps: HarnessSnapshot[] = [];
  for (const [subtask, w] of [
    [0, 200],
    [1, 100],
  ]) {
    const h = await OperatorTestHarness.open(() => new CountPerKey(), { subtask, parallelism: 2 });
    await h.processWatermark(w);
    snaps.push(await h.snapshot(1));
    await h.close();
  }
  const r = await OperatorTestHarness.open(() => new CountPerKey(), {}, snaps);
  await r.processWatermark(100); // not above the restored 100: ignored
  await r.processBatch(rows(['a', 150])); // on time against 100 (it would be late against 200)
  await r.processWatermark(160);
  assert.deepEqual(r.events, [
    { kind: 'records', port: 'out', rows: [{ k: 'a', n: 1 }], ts: [160] },
    { kind: 'watermark', watermark: 160 },
  ]);
  assert.equal(r.lateRecordsDropped, 0);
  await r.close();
});

test('the default lifecycle: checkpoint completion, end of input and close emit nothing', async () => {
  const h = await OperatorTestHarness.open(() => new CountPerKey());
  await h.processBatch(rows(['a', 100]));
  await h.operator.notifyCheckpointComplete(1);
  await h.operator.endInput();
  assert.deepEqual(h.events, []);
  await h.close();
});
