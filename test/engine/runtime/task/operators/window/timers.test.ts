/**
 * The two timer indexes (ordered scans for RocksDB, a heap queue for heap backends) must find the
 * same due timers for the same state, both for window entries and session timer entries, also
 * after being rebuilt from state alone (what happens on restore).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryKeyedStateBackend } from '../../../../../support/harness/index.ts';
import {
  HeapTimerQueue,
  ScanningTimerIndex,
  compareTimers,
  type StateWrite,
  type Timer,
  type TimerIndex,
  type TimerLayout,
} from '../../../../../../engine/runtime/task/operators/window/timers.ts';
import { alignedWindowKey, timerKey } from '../../../../../../engine/runtime/task/operators/window/state-keys.ts';
import { prng } from './window-fixtures.ts';

const RANGE = { start: 10, end: 60 };

function describe(ts: Timer[]): string[] {
  return ts.sort(compareTimers).map((t) => `${t.keyGroup}/${t.time}/${t.end}/${t.key}/${t.id}`);
}

for (const layout of ['window-entries', 'timer-entries'] as TimerLayout[]) {
  test(`ScanningTimerIndex and HeapTimerQueue agree (${layout}), before and after a rebuild from state`, async () => {
    const rnd = prng(layout.length);
    const backend = new InMemoryKeyedStateBackend(RANGE);
    const table = backend.table<unknown>('window');
    const make = (): [TimerIndex, TimerIndex] => [
      new ScanningTimerIndex(table, RANGE, layout),
      new HeapTimerQueue(table, layout),
    ];
    let [scan, heap] = make();
    let wm = 0;
    for (let round = 0; round < 60; round++) {
      const writes: StateWrite[] = [];
      const timers: Timer[] = [];
      for (let i = 0; i < 1 + Math.floor(rnd() * 30); i++) {
        const keyGroup = RANGE.start + Math.floor(rnd() * (RANGE.end - RANGE.start + 1));
        const key = `["k${Math.floor(rnd() * 500)}"]`;
        const end = wm + 1 + Math.floor(rnd() * 400);
        // A window in its lateness phase has a timer after its end.
        const time = rnd() < 0.3 ? end - 1 + Math.floor(rnd() * 100) : end - 1;
        const id =
          layout === 'window-entries' ? alignedWindowKey(keyGroup, end, key) : timerKey(keyGroup, time, end, key);
        if (timers.some((t) => t.id === id)) continue;
        timers.push({ id, keyGroup, time, end, key });
      }
      for (const t of timers) {
        if (layout === 'window-entries') writes.push([t.id, { k: [], a: [], t: t.time }]);
        scan.register(writes, t);
        heap.register([], t);
      }
      await table.writeMany(writes);
      if (round % 20 === 19) [scan, heap] = make(); // forget everything: rebuild from state only
      if (round % 20 === 19) {
        await scan.rebuild();
        await heap.rebuild();
      }
      wm += Math.floor(rnd() * 120);
      const a = await scan.due(wm);
      const b = await heap.due(wm);
      assert.deepEqual(describe(a), describe(b), `round ${round}`);
      for (const t of a) assert.ok(t.time <= wm);
      const gone: StateWrite[] = a.map((t) => [t.id, undefined]);
      await table.writeMany(gone);
    }
    const rest = await scan.due(Infinity);
    assert.deepEqual(describe(rest), describe(await heap.due(Infinity)));
    await table.writeMany(rest.map((t) => [t.id, undefined]));
    assert.equal((await backend.size()).entries, 0, 'every timer was found due exactly once');
  });
}
