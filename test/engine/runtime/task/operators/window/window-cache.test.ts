/**
 * The aligned-window operator caches (key, window) entries across batches, looks keys up by their
 * raw single-column value and holds back updates of windows already in state until a flush (before
 * firing, before a snapshot, before reading state after a dirty window left the cache). These tests
 * pin what must not change because of that, on every real backend: RocksDB stores bytes, so a
 * missing flush or a stale cached object shows there as a wrong count.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BACKEND_KINDS,
  OperatorTestHarness,
  createHarnessBackends,
  type BackendFactory,
  type HarnessBackends,
} from '../../../../../support/harness/index.ts';
import type { KeyedStateBackend, StateTable } from '../../../../../../engine/contracts/keyed-state.ts';
import type { Row } from '../../../../../../engine/contracts/operator.ts';
import { T0, at, iso, windowJob } from './window-fixtures.ts';

let backends: HarnessBackends;
const ready = createHarnessBackends().then((b) => {
  backends = b;
});
after(async () => {
  await backends?.dispose();
});

/** Counts the keys every `getMany` of the backend's tables asks for. */
function countingReads(factory: BackendFactory): { factory: BackendFactory; reads: () => number } {
  let reads = 0;
  const wrap = (b: KeyedStateBackend): KeyedStateBackend => ({
    kind: b.kind,
    table<V>(name: string): StateTable<V> {
      const t = b.table<V>(name);
      return {
        name: t.name,
        getMany: (keys) => {
          reads += keys.length;
          return t.getMany(keys);
        },
        writeMany: (entries) => t.writeMany(entries),
        scan: (range) => t.scan(range),
      };
    },
    size: () => b.size(),
    snapshot: (id) => b.snapshot(id),
    restore: (s, r) => b.restore(s, r),
    dispose: () => b.dispose(),
  });
  return { factory: async (range, subtask) => wrap(await factory(range, subtask)), reads: () => reads };
}

const rowsOf = (h: OperatorTestHarness): Row[] => h.output().map((r) => r.row);

for (const kind of BACKEND_KINDS) {
  test(`${kind}: a window living through many batches is read from state once and counts every record`, async () => {
    await ready;
    const { factory, reads } = countingReads(backends.factory(kind, `long-${kind}`));
    const { create } = windowJob({
      keyBy: 'user',
      window: { kind: 'tumbling', size: 10_000 },
      aggregates: 'COUNT(*) AS n, SUM(v) AS total',
    });
    const h = await OperatorTestHarness.open(create, { backend: factory });
    for (let b = 0; b < 20; b++) {
      await h.processElements([at(b * 10, { user: 'a', v: 1 }), at(b * 10 + 5, { user: 'b', v: 2 })]);
      await h.processWatermark(T0 + b * 10);
    }
    assert.equal(reads(), 2, 'one read per window (when it was new), none per later batch');
    await h.endInput();
    assert.deepEqual(rowsOf(h), [
      { window_start: iso(T0), window_end: iso(T0 + 10_000), user: 'a', n: 20, total: 20 },
      { window_start: iso(T0), window_end: iso(T0 + 10_000), user: 'b', n: 20, total: 40 },
    ]);
    await h.close();
  });

  test(`${kind}: a snapshot includes updates made since the window was last written`, async () => {
    await ready;
    const backend = backends.factory(kind, `held-${kind}`);
    const { create } = windowJob({
      keyBy: 'user',
      window: { kind: 'tumbling', size: 1000 },
      aggregates: 'COUNT(*) AS n, SUM(v) AS total',
    });
    const h = await OperatorTestHarness.open(create, { backend });
    await h.processElements([at(1, { user: 'a', v: 1 })]); // new window: written at once
    await h.processElements([at(2, { user: 'a', v: 10 }), at(3, { user: 'a', v: 100 })]); // an update of it
    await h.processWatermark(T0 + 3);
    const snap = await h.snapshot(1);
    await h.processElements([at(4, { user: 'a', v: 1000 })]); // after the snapshot: must not leak into it
    await h.close();

    const restored = await OperatorTestHarness.open(create, { backend }, [snap]);
    await restored.processElements([at(5, { user: 'a', v: 5 })]);
    await restored.endInput();
    assert.deepEqual(rowsOf(restored), [
      { window_start: iso(T0), window_end: iso(T0 + 1000), user: 'a', n: 4, total: 116 },
    ]);
    await restored.close();
  });

  test(`${kind}: windows that leave the per-key cache with unwritten updates are read back correctly`, async () => {
    await ready;
    const backend = backends.factory(kind, `evict-${kind}`);
    const { create } = windowJob({
      keyBy: 'user',
      window: { kind: 'tumbling', size: 100 },
      aggregates: 'COUNT(*) AS n',
    });
    const h = await OperatorTestHarness.open(create, { backend });
    // Ten open windows of one key (the watermark stays behind them all), each touched in several
    // batches, with batches for a far window in between that push the ten out of the key's cache.
    const ten = (): ReturnType<typeof at>[] => Array.from({ length: 10 }, (_, w) => at(w * 100 + 1, { user: 'a' }));
    await h.processElements(ten()); // new: written at once
    await h.processElements(ten()); // updates: held back
    await h.processElements([at(5_000, { user: 'a' })]); // evicts the ten, unwritten
    await h.processElements(ten()); // read back: must see the held-back updates
    await h.processElements([at(6_000, { user: 'a' })]);
    await h.processElements(ten());
    await h.endInput();
    const counts = rowsOf(h).map((r) => r.n);
    assert.deepEqual(counts, [...Array(10).fill(4), 1, 1]);
    await h.close();
  });

  test(`${kind}: key values that share one key string share one window (NULL, missing, NaN; 0 and -0)`, async () => {
    await ready;
    const backend = backends.factory(kind, `nulls-${kind}`);
    const { create } = windowJob({ keyBy: 'k', window: { kind: 'tumbling', size: 1000 }, aggregates: 'COUNT(*) AS n' });
    const h = await OperatorTestHarness.open(create, { backend });
    await h.processElements([
      at(1, { k: null }),
      at(2, {}),
      at(3, { k: NaN }),
      at(4, { k: 0 }),
      at(5, { k: -0 }),
      at(6, { k: '0' }),
    ]);
    await h.processElements([at(7, { k: NaN }), at(8, { k: null }), at(9, { k: -0 })]);
    await h.endInput();
    const byKey = new Map(h.output().map((r) => [JSON.stringify([r.row.k]), r.row.n]));
    assert.deepEqual([...byKey.entries()].sort(), [
      ['["0"]', 1],
      ['[0]', 3],
      ['[null]', 5],
    ]);
    assert.equal(h.output().length, 3, 'one result per key string');
    await h.close();
  });
}
