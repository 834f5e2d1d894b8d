/**
 * Snapshots and restores of the window operator on the three real state backends (memory, fs,
 * rocksdb): restoring in the middle of a run gives exactly the output of an uninterrupted run, also
 * into a different parallelism (key groups split 1 -> 4 and merged 4 -> 1), and all backends give
 * identical output.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BACKEND_KINDS,
  KeyedParallelHarness,
  OperatorTestHarness,
  createHarnessBackends,
  type HarnessBackends,
} from '../../../../../support/harness/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import type { WindowSpec } from '../../../../../../engine/graph/types.ts';
import {
  AGGREGATES,
  canonical,
  drive,
  randomInput,
  referenceWindows,
  windowJob,
  type InputEvent,
  type RefSpec,
} from './window-fixtures.ts';

let backends: HarnessBackends;
const ready = createHarnessBackends().then((b) => {
  backends = b;
});
after(async () => {
  await backends?.dispose();
});

const KINDS: Array<{ name: string; spec: WindowSpec; ref: RefSpec }> = [
  { name: 'tumbling', spec: { kind: 'tumbling', size: 800 }, ref: { kind: 'tumbling', size: 800 } },
  {
    name: 'sliding',
    spec: { kind: 'sliding', size: 900, slide: 300 },
    ref: { kind: 'sliding', size: 900, slide: 300 },
  },
  { name: 'session', spec: { kind: 'session', gap: 100 }, ref: { kind: 'session', gap: 100 } },
];

function split(events: InputEvent[], at: number): [InputEvent[], InputEvent[]] {
  return [events.slice(0, at), events.slice(at)];
}

for (const [i, kind] of KINDS.entries()) {
  test(`${kind.name}: snapshot mid-run + restore equals an uninterrupted run, on every backend, identically`, async () => {
    await ready;
    const events = randomInput({ seed: 50 + i, count: 1500, keys: 20, step: 5, jitter: 120, delay: 50, maxBatch: 40 });
    const { create } = windowJob(
      { keyBy: 'user', window: kind.spec, aggregates: AGGREGATES, allowedLateness: 150 },
      { lateWired: true },
    );
    const [first, rest] = split(events, Math.floor(events.length / 2));
    const outputs: string[] = [];
    for (const backendKind of BACKEND_KINDS) {
      const backend = backends.factory(backendKind, `${kind.name}-${backendKind}`);
      const whole = await OperatorTestHarness.open(create, { backend });
      await drive(whole, events);
      const wanted = JSON.stringify([whole.output(), whole.output('late')]);
      await whole.close();

      const before = await OperatorTestHarness.open(create, { backend });
      await drive(before, first);
      const snap = await before.snapshot(1);
      const outBefore = before.output();
      const lateBefore = before.output('late');
      // Writes after the snapshot must not leak into it: the original carries on to the end.
      await drive(before, rest);
      assert.equal(JSON.stringify([before.output(), before.output('late')]), wanted, `${backendKind}: carried on`);
      await before.close();

      const restored = await OperatorTestHarness.open(create, { backend }, [snap]);
      await drive(restored, rest);
      const joined = JSON.stringify([
        [...outBefore, ...restored.output()],
        [...lateBefore, ...restored.output('late')],
      ]);
      assert.equal(joined, wanted, `${backendKind}: restored run`);
      await restored.close();
      outputs.push(wanted);
    }
    assert.equal(outputs[1], outputs[0], 'fs gives the same output as memory');
    assert.equal(outputs[2], outputs[0], 'rocksdb gives the same output as memory');
  });
}

for (const [i, kind] of KINDS.entries()) {
  test(`${kind.name}: restore with a different parallelism (1 -> 4 -> 1) matches the reference, on every backend`, async () => {
    await ready;
    const events = randomInput({ seed: 80 + i, count: 2000, keys: 30, step: 5, jitter: 120, delay: 50, maxBatch: 40 });
    const want = referenceWindows(events, kind.ref, ['user'], 150);
    const { create } = windowJob(
      { keyBy: 'user', window: kind.spec, aggregates: AGGREGATES, allowedLateness: 150 },
      { lateWired: true },
    );
    const keyOf = parseKeyBy('user').keyOf;
    const a = Math.floor(events.length / 3);
    const b = Math.floor((2 * events.length) / 3);
    for (const backendKind of BACKEND_KINDS) {
      const backend = backends.factory(backendKind, `rescale-${kind.name}-${backendKind}`);
      const p1 = await KeyedParallelHarness.open(create, { parallelism: 1, keyOf, backend });
      await drive(p1, events.slice(0, a));
      const s1 = await p1.snapshot(1);
      const p4 = await KeyedParallelHarness.open(create, { parallelism: 4, keyOf, backend }, s1);
      await drive(p4, events.slice(a, b));
      const s2 = await p4.snapshot(2);
      assert.equal(s2.length, 4);
      const back = await KeyedParallelHarness.open(create, { parallelism: 1, keyOf, backend }, s2);
      await drive(back, events.slice(b));
      const out = [...p1.output(), ...p4.output(), ...back.output()];
      const late = [...p1.output('late'), ...p4.output('late'), ...back.output('late')];
      assert.deepEqual(canonical(out), canonical(want.out), `${backendKind}: results`);
      assert.deepEqual(canonical(late), canonical(want.late), `${backendKind}: late records`);
      // Every subtask of the 4 got part of the keys.
      for (const s of p4.subtasks)
        assert.ok(s.output().length > 0, `${backendKind}: subtask ${s.subtask} fired windows`);
      await p1.close();
      await p4.close();
      await back.close();
    }
  });
}
