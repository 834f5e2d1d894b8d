/**
 * The window operator against an independent reference (window-fixtures.ts `referenceWindows`) on
 * randomized out-of-order input of a few thousand events with late records, for every window kind,
 * keyed and global, with and without allowed lateness, on one subtask and on four.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedParallelHarness, OperatorTestHarness } from '../../../../../support/harness/index.ts';
import { parseKeyBy } from '../../../../../../engine/sql/index.ts';
import type { WindowSpec } from '../../../../../../engine/graph/types.ts';
import {
  AGGREGATES,
  canonical,
  drive,
  randomInput,
  referenceWindows,
  windowJob,
  type RefSpec,
} from './window-fixtures.ts';

interface Case {
  name: string;
  spec: WindowSpec;
  ref: RefSpec;
  keyBy?: string;
  lateness: number;
}

const CASES: Case[] = [
  {
    name: 'keyed tumbling',
    spec: { kind: 'tumbling', size: 1000 },
    ref: { kind: 'tumbling', size: 1000 },
    keyBy: 'user',
    lateness: 0,
  },
  {
    name: 'keyed tumbling, allowed lateness',
    spec: { kind: 'tumbling', size: 1000 },
    ref: { kind: 'tumbling', size: 1000 },
    keyBy: 'user',
    lateness: 300,
  },
  { name: 'global tumbling', spec: { kind: 'tumbling', size: 500 }, ref: { kind: 'tumbling', size: 500 }, lateness: 0 },
  {
    name: 'keyed sliding (2 columns)',
    spec: { kind: 'sliding', size: 1500, slide: 500 },
    ref: { kind: 'sliding', size: 1500, slide: 500 },
    keyBy: 'region, user',
    lateness: 200,
  },
  {
    name: 'global sliding',
    spec: { kind: 'sliding', size: 1000, slide: 300 },
    ref: { kind: 'sliding', size: 1000, slide: 300 },
    lateness: 0,
  },
  {
    name: 'keyed session',
    spec: { kind: 'session', gap: 120 },
    ref: { kind: 'session', gap: 120 },
    keyBy: 'user',
    lateness: 0,
  },
  {
    name: 'keyed session, allowed lateness',
    spec: { kind: 'session', gap: 150 },
    ref: { kind: 'session', gap: 150 },
    keyBy: 'user',
    lateness: 250,
  },
  { name: 'global session', spec: { kind: 'session', gap: 40 }, ref: { kind: 'session', gap: 40 }, lateness: 100 },
];

for (const [i, c] of CASES.entries()) {
  test(`randomized vs reference: ${c.name}, parallelism 1 and 4`, async () => {
    // Sessions need sparse keys to form gaps; aligned windows get more keys per window.
    const session = c.spec.kind === 'session';
    const events = randomInput({
      seed: 1000 + i,
      count: 3000,
      keys: session ? 25 : 12,
      step: session ? 6 : 4,
      jitter: 150,
      delay: 60,
      maxBatch: 60,
    });
    const keyCols = c.keyBy ? parseKeyBy(c.keyBy).columns : [];
    const want = referenceWindows(events, c.ref, keyCols, c.lateness);
    assert.ok(want.late.length > 10, `the input has late records (${want.late.length})`);
    assert.ok(want.out.length > 20, `the input fires windows (${want.out.length})`);
    const { create } = windowJob(
      { keyBy: c.keyBy, window: c.spec, aggregates: AGGREGATES, allowedLateness: c.lateness },
      { lateWired: true },
    );

    const one = await OperatorTestHarness.open(create);
    await drive(one, events);
    assert.deepEqual(canonical(one.output()), canonical(want.out));
    assert.deepEqual(canonical(one.output('late')), canonical(want.late));
    await one.close();

    const key = c.keyBy ? parseKeyBy(c.keyBy).keyOf : null;
    const four = await KeyedParallelHarness.open(create, { parallelism: 4, keyOf: key });
    await drive(four, events);
    assert.deepEqual(canonical(four.output()), canonical(want.out));
    assert.deepEqual(canonical(four.output('late')), canonical(want.late));
    await four.close();
  });
}

test('late records without a late port are counted, as many as the reference drops', async () => {
  const events = randomInput({ seed: 7, count: 2000, keys: 8, step: 4, jitter: 150, delay: 40, maxBatch: 50 });
  const want = referenceWindows(events, { kind: 'tumbling', size: 700 }, ['user'], 100);
  const { create } = windowJob({
    keyBy: 'user',
    window: { kind: 'tumbling', size: 700 },
    aggregates: AGGREGATES,
    allowedLateness: 100,
  });
  const h = await OperatorTestHarness.open(create);
  await drive(h, events);
  assert.ok(want.late.length > 10);
  assert.equal(h.lateRecordsDropped, want.late.length);
  assert.deepEqual(canonical(h.output()), canonical(want.out));
  await h.close();
});
