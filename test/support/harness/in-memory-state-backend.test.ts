/**
 * The harness's small in-memory backend keeps the KeyedStateBackend contract exactly as the real
 * backends do: the same checks run against it and against memory, fs and rocksdb.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BACKEND_KINDS,
  createHarnessBackends,
  inMemoryBackend,
  type BackendFactory,
  type HarnessBackends,
} from './index.ts';
import { keyGroupRangeFor, stateKey } from '../../../engine/state/keygroups.ts';

let backends: HarnessBackends;
const ready = createHarnessBackends().then((b) => {
  backends = b;
});
after(async () => {
  await backends?.dispose();
});

async function all(it: AsyncIterable<[string, unknown]>): Promise<Array<[string, unknown]>> {
  const out: Array<[string, unknown]> = [];
  for await (const e of it) out.push(e);
  return out;
}

const factories = async (): Promise<Array<[string, BackendFactory]>> => {
  await ready;
  return [
    ['in-memory (harness)', inMemoryBackend],
    ...BACKEND_KINDS.map((k) => [k, backends.factory(k, `contract-${k}`)] as [string, BackendFactory]),
  ];
};

test('getMany/writeMany/scan: same answers on the harness backend and the three real ones', async () => {
  const results: string[] = [];
  for (const [name, factory] of await factories()) {
    const b = await factory({ start: 0, end: 127 }, 0);
    const t = b.table<{ n: number }>('t');
    // Keys chosen to trip byte-order vs UTF-16 order: U+FFFF sorts after a surrogate pair in UTF-16.
    const keys = [
      stateKey(3, 'b'),
      stateKey(3, 'a'),
      stateKey(1, 'z'),
      stateKey(3, '\uffff'),
      stateKey(3, '\ud83d\ude00'),
      stateKey(40, 'x'),
    ];
    await t.writeMany(keys.map((k, i) => [k, { n: i }] as const));
    await t.writeMany([
      [stateKey(1, 'z'), undefined],
      [stateKey(3, 'a'), { n: 99 }],
    ]);
    assert.deepEqual(
      await t.getMany([stateKey(3, 'a'), stateKey(1, 'z'), 'nope']),
      [{ n: 99 }, undefined, undefined],
      name,
    );
    const scanned = await all(t.scan({ gte: stateKey(3, ''), lt: stateKey(3, '\uffff') }));
    results.push(JSON.stringify(scanned));
    assert.deepEqual(
      scanned.map(([k]) => k),
      [stateKey(3, 'a'), stateKey(3, 'b'), stateKey(3, '\ud83d\ude00')],
      name,
    );
    assert.equal((await all(t.scan())).length, 5, name);
    await b.dispose();
  }
  assert.ok(results.every((r) => r === results[0]));
});

test('a snapshot is not changed by later writes, and restore keeps only the given key-group range', async () => {
  for (const [name, factory] of await factories()) {
    const b = await factory({ start: 0, end: 127 }, 0);
    const t = b.table<{ v: number[] }>('w');
    const entries = Array.from({ length: 128 }, (_, g): [string, { v: number[] }] => [
      stateKey(g, `k${g}`),
      { v: [g] },
    ]);
    await t.writeMany(entries);
    const expected = JSON.parse(JSON.stringify(entries)) as Array<[string, unknown]>;
    const obj = (await t.getMany([stateKey(5, 'k5')]))[0]!;
    const finish = b.snapshot(1);
    obj.v.push(1000); // in-place change of an object read from state, after the synchronous part
    await t.writeMany([
      [stateKey(6, 'k6'), { v: [-1] }],
      [stateKey(7, 'k7'), undefined],
    ]);
    const snap = await finish();
    await b.dispose();

    const halves = [keyGroupRangeFor(128, 2, 0), keyGroupRangeFor(128, 2, 1)];
    const restored: Array<[string, unknown]> = [];
    for (const [i, range] of halves.entries()) {
      const r = await factory(range, i);
      await r.restore([snap], range);
      const got = await all(r.table('w').scan());
      for (const [k] of got) {
        const g = parseInt(k.slice(0, 4), 16);
        assert.ok(
          g >= range.start && g <= range.end,
          `${name}: key group ${g} restored outside ${range.start}-${range.end}`,
        );
      }
      restored.push(...got);
      await r.dispose();
    }
    assert.deepEqual(restored, expected, `${name}: the two halves restore exactly the snapshot`);
  }
});
