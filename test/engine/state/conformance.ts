/**
 * The keyed-state conformance suite: every KeyedStateBackend (heap memory/fs, RocksDB full and
 * incremental) must pass it, so operators behave identically on all of them.
 *
 * Usage: `stateBackendConformance('rocksdb', () => harness)` inside a test file. The harness creates
 * fresh backends sharing one checkpoint storage (so a snapshot taken by one can be restored by
 * another) and cleans everything up.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyedStateBackend, KeyedStateSnapshot, KeyGroupRange } from '../../../engine/contracts/keyed-state.ts';
import { keyGroupOf, keyGroupRangeFor, stateKey } from '../../../engine/state/keygroups.ts';

export const MAX_PARALLELISM = 128;

export interface StateBackendHarness {
  /** A fresh, empty backend owning `range`. */
  create(range: KeyGroupRange, opts?: { subtask?: number }): Promise<KeyedStateBackend>;
  /** Announce checkpoint n before snapshots are taken (the runtime calls storage.beginCheckpoint). */
  beginCheckpoint?(checkpointId: number, kind?: 'checkpoint' | 'savepoint'): void;
  cleanup(): Promise<void>;
}

const FULL: KeyGroupRange = { start: 0, end: MAX_PARALLELISM - 1 };

export function sk(key: string): string {
  return stateKey(keyGroupOf(key, MAX_PARALLELISM), key);
}

export async function collect<V>(it: AsyncIterable<[string, V]>): Promise<Array<[string, V]>> {
  const out: Array<[string, V]> = [];
  for await (const e of it) out.push(e);
  return out;
}

/** Every table's content, for comparing whole states. */
export async function dump(b: KeyedStateBackend, tables: string[]): Promise<Record<string, Array<[string, unknown]>>> {
  const out: Record<string, Array<[string, unknown]>> = {};
  for (const t of tables) out[t] = await collect(b.table(t).scan());
  return out;
}

export function stateBackendConformance(name: string, makeHarness: () => Promise<StateBackendHarness>): void {
  describe(`KeyedStateBackend conformance: ${name}`, () => {
    let h: StateBackendHarness;
    let nextId = 1;
    const backends: KeyedStateBackend[] = [];
    const fresh = async (range: KeyGroupRange = FULL, subtask = 0): Promise<KeyedStateBackend> => {
      const b = await h.create(range, { subtask });
      backends.push(b);
      return b;
    };
    const snap = async (
      b: KeyedStateBackend,
      kind: 'checkpoint' | 'savepoint' = 'checkpoint',
    ): Promise<KeyedStateSnapshot> => {
      const id = nextId++;
      h.beginCheckpoint?.(id, kind);
      return b.snapshot(id)();
    };

    before(async () => {
      h = await makeHarness();
    });
    after(async () => {
      for (const b of backends) await b.dispose();
      await h.cleanup();
    });

    it('gets undefined for absent keys and handles empty calls', async () => {
      const t = (await fresh()).table<number>('t');
      assert.deepEqual(await t.getMany([]), []);
      await t.writeMany([]);
      assert.deepEqual(await t.getMany([sk('a'), sk('b')]), [undefined, undefined]);
    });

    it('applies puts and deletes in order within one batch', async () => {
      const t = (await fresh()).table<number>('t');
      await t.writeMany([
        [sk('a'), 1],
        [sk('a'), undefined],
        [sk('b'), 2],
        [sk('c'), 3],
        [sk('c'), 4],
        [sk('d'), undefined],
      ]);
      assert.deepEqual(await t.getMany([sk('a'), sk('b'), sk('c'), sk('d')]), [undefined, 2, 4, undefined]);
      await t.writeMany([
        [sk('b'), undefined],
        [sk('b'), 5],
      ]);
      assert.deepEqual(await t.getMany([sk('b')]), [5]);
    });

    it('keeps tables independent', async () => {
      const b = await fresh();
      await b.table('x').writeMany([[sk('k'), 'in x']]);
      await b.table('y').writeMany([[sk('k'), 'in y']]);
      await b.table('xy').writeMany([[sk('k'), 'in xy']]);
      assert.deepEqual(await b.table('x').getMany([sk('k')]), ['in x']);
      assert.deepEqual(await b.table('y').getMany([sk('k')]), ['in y']);
      assert.deepEqual(
        (await collect(b.table('x').scan())).map((e) => e[1]),
        ['in x'],
      );
      await b.table('x').writeMany([[sk('k'), undefined]]);
      assert.deepEqual(await b.table('xy').getMany([sk('k')]), ['in xy']);
    });

    it('round-trips JSON values exactly', async () => {
      const t = (await fresh()).table<unknown>('v');
      const values: unknown[] = [
        0,
        -1.5,
        1e300,
        'text',
        '',
        'ünï\u{1F600}',
        null,
        true,
        false,
        [],
        [1, [2, { a: null }]],
        { nested: { deep: [1, 2, 3], s: 'x' }, n: 42 },
        { '': 1, 'k\u0000': 2 },
      ];
      await t.writeMany(values.map((v, i) => [sk(`v${i}`), v] as const));
      assert.deepEqual(await t.getMany(values.map((_, i) => sk(`v${i}`))), values);
    });

    it('scans in ascending UTF-16 code unit order with gte/lt bounds', async () => {
      const t = (await fresh()).table<number>('s');
      // Same key-group prefix for all, so order is decided by the tricky suffixes.
      const raw = ['a', 'b', 'ab', 'B', 'é', '\uE000', '\u{1F600}', '\uFFFF', '\uD800', 'z', 'a\u0000', 'a\u0001', ''];
      const keys = raw.map((r) => stateKey(7, r));
      await t.writeMany(keys.map((k, i) => [k, i] as const));
      const expected = [...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      assert.deepEqual(
        (await collect(t.scan())).map((e) => e[0]),
        expected,
      );
      const gte = stateKey(7, 'a'),
        lt = stateKey(7, 'z');
      assert.deepEqual(
        (await collect(t.scan({ gte, lt }))).map((e) => e[0]),
        expected.filter((k) => k >= gte && k < lt),
      );
      assert.deepEqual(
        (await collect(t.scan({ gte: stateKey(7, '\uD800') }))).map((e) => e[0]),
        expected.filter((k) => k >= stateKey(7, '\uD800')),
      );
      assert.deepEqual(await collect(t.scan({ gte: lt, lt: gte })), []);
      // A lone surrogate key comes back unchanged.
      assert.deepEqual(await t.getMany([stateKey(7, '\uD800')]), [raw.indexOf('\uD800')]);
    });

    it('reports a size that grows with the state', async () => {
      const b = await fresh();
      const before = await b.size();
      await b
        .table('t')
        .writeMany(Array.from({ length: 500 }, (_, i) => [sk(`k${i}`), { i, pad: 'x'.repeat(50) }] as const));
      const s = await b.size();
      assert.ok(s.entries >= 400 && s.entries <= 600, `entries ${s.entries}`);
      assert.ok(s.liveBytes > before.liveBytes, `liveBytes ${s.liveBytes}`);
      assert.ok(s.diskBytes >= 0);
    });

    it('snapshots a consistent view: writes after the synchronous part are not in it', async () => {
      const b = await fresh();
      const t = b.table<number>('t');
      await t.writeMany(Array.from({ length: 200 }, (_, i) => [sk(`k${i}`), i] as const));
      const id = nextId++;
      h.beginCheckpoint?.(id);
      const asyncPart = b.snapshot(id);
      // Processing continues while the snapshot is written.
      await t.writeMany([
        [sk('k0'), -1],
        [sk('k1'), undefined],
        [sk('new'), 99],
      ]);
      const s = await asyncPart();
      assert.ok(s.fullBytes > 0);
      const r = await fresh();
      await r.restore([s], FULL);
      const rt = r.table<number>('t');
      assert.deepEqual(await rt.getMany([sk('k0'), sk('k1'), sk('new'), sk('k199')]), [0, 1, undefined, 199]);
      assert.equal((await collect(rt.scan())).length, 200);
      // The live backend kept its newer writes.
      assert.deepEqual(await t.getMany([sk('k0'), sk('k1'), sk('new')]), [-1, undefined, 99]);
    });

    it('snapshots never share objects with working state: values changed in place and written back', async () => {
      // The window operator's pattern: read a value, change it in place, write it back, keep the
      // object and change it again after later snapshots (copy-on-write heap snapshots rely on it).
      const b = await fresh();
      const t = b.table<{ n: number; xs: number[] }>('t');
      await t.writeMany([
        [sk('a'), { n: 1, xs: [1] }],
        [sk('b'), { n: 1, xs: [1] }],
      ]);
      const [held] = await t.getMany([sk('a')]);
      const id1 = nextId++;
      h.beginCheckpoint?.(id1);
      const first = b.snapshot(id1);
      // After the synchronous part, before and while the asynchronous part runs.
      held!.n = 2;
      held!.xs.push(2);
      await t.writeMany([[sk('a'), held]]);
      const s1 = await first();
      held!.n = 3;
      held!.xs.push(3);
      await t.writeMany([[sk('a'), held]]);
      const s2 = await snap(b);
      const s3 = await snap(b); // nothing touched since s2
      held!.n = 4;
      for (const [s, a, bv] of [
        [s1, { n: 1, xs: [1] }, { n: 1, xs: [1] }],
        [s2, { n: 3, xs: [1, 2, 3] }, { n: 1, xs: [1] }],
        [s3, { n: 3, xs: [1, 2, 3] }, { n: 1, xs: [1] }],
      ] as const) {
        const r = await fresh();
        await r.restore([s], FULL);
        assert.deepEqual(await r.table('t').getMany([sk('a'), sk('b')]), [a, bv]);
      }
    });

    it('restores every one of several successive snapshots to exactly its own state', async () => {
      const b = await fresh();
      const t = b.table<number>('t');
      const u = b.table<string>('u');
      const shots: Array<{ snap: KeyedStateSnapshot; state: Awaited<ReturnType<typeof dump>> }> = [];
      for (let round = 0; round < 5; round++) {
        const writes: Array<readonly [string, number | undefined]> = [];
        for (let i = 0; i < 300; i++) {
          if ((i + round) % 7 === 0) writes.push([sk(`k${i}`), undefined]);
          else if ((i * 13 + round) % 5 === 0 || round === 0) writes.push([sk(`k${i}`), i * 100 + round]);
        }
        await t.writeMany(writes);
        await u.writeMany([
          [sk(`r${round}`), `round ${round}`],
          [sk(`r${round - 2}`), undefined],
        ]);
        shots.push({ snap: await snap(b), state: await dump(b, ['t', 'u']) });
      }
      for (const [i, s] of shots.entries()) {
        const r = await fresh();
        await r.restore([s.snap], FULL);
        assert.deepEqual(await dump(r, ['t', 'u']), s.state, `snapshot ${i}`);
      }
    });

    it('restore replaces the previous content', async () => {
      const a = await fresh();
      await a.table('t').writeMany([[sk('a'), 1]]);
      const s = await snap(a);
      const b = await fresh();
      await b.table('t').writeMany([[sk('zzz'), 2]]);
      await b.table('other').writeMany([[sk('o'), 3]]);
      await b.restore([s], FULL);
      assert.deepEqual(await dump(b, ['t', 'other']), { t: [[sk('a'), 1]], other: [] });
    });

    it('restores only the owned key groups, and merges several snapshots after a rescale', async () => {
      // Two subtasks (parallelism 2) hold disjoint key groups.
      const ranges = [keyGroupRangeFor(MAX_PARALLELISM, 2, 0), keyGroupRangeFor(MAX_PARALLELISM, 2, 1)];
      const olds = [await fresh(ranges[0], 0), await fresh(ranges[1], 1)];
      const all = new Map<string, number>();
      for (let i = 0; i < 400; i++) {
        const key = sk(`user${i}`);
        const g = keyGroupOf(`user${i}`, MAX_PARALLELISM);
        const owner = g <= ranges[0].end ? 0 : 1;
        await olds[owner].table<number>('w').writeMany([[key, i]]);
        all.set(key, i);
      }
      const snaps = [await snap(olds[0]), await snap(olds[1])];
      // Scale up to 3: each new subtask gets exactly its key groups out of both snapshots.
      let seen = 0;
      for (let sub = 0; sub < 3; sub++) {
        const range = keyGroupRangeFor(MAX_PARALLELISM, 3, sub);
        const r = await fresh(range, sub);
        await r.restore(snaps, range);
        const got = await collect(r.table<number>('w').scan());
        for (const [k, v] of got) {
          const g = parseInt(k.slice(0, 4), 16);
          assert.ok(g >= range.start && g <= range.end, `key ${k} outside ${range.start}..${range.end}`);
          assert.equal(all.get(k), v);
        }
        seen += got.length;
      }
      assert.equal(seen, all.size);
      // Scale down to 1: the union.
      const one = await fresh(FULL);
      await one.restore(snaps, FULL);
      assert.equal((await collect(one.table('w').scan())).length, all.size);
    });

    it('snapshots of an empty state restore to an empty state', async () => {
      const b = await fresh();
      const s = await snap(b);
      const r = await fresh();
      await r.table('t').writeMany([[sk('x'), 1]]);
      await r.restore([s], FULL);
      assert.deepEqual(await collect(r.table('t').scan()), []);
    });

    it('savepoints restore like checkpoints and do not disturb later checkpoints', async () => {
      const b = await fresh();
      const t = b.table<number>('t');
      await t.writeMany(Array.from({ length: 100 }, (_, i) => [sk(`k${i}`), i] as const));
      await snap(b);
      await t.writeMany([[sk('k1'), 1001]]);
      const sp = await snap(b, 'savepoint');
      const spState = await dump(b, ['t']);
      await t.writeMany([
        [sk('k2'), undefined],
        [sk('k3'), 3003],
      ]);
      const c = await snap(b);
      const cState = await dump(b, ['t']);
      const r1 = await fresh();
      await r1.restore([sp], FULL);
      assert.deepEqual(await dump(r1, ['t']), spState);
      const r2 = await fresh();
      await r2.restore([c], FULL);
      assert.deepEqual(await dump(r2, ['t']), cState);
    });

    it('a restored backend snapshots again correctly (restore, change, snapshot, restore)', async () => {
      const a = await fresh();
      await a.table<number>('t').writeMany(Array.from({ length: 50 }, (_, i) => [sk(`k${i}`), i] as const));
      const s1 = await snap(a);
      const b = await fresh();
      await b.restore([s1], FULL);
      await b.table<number>('t').writeMany([
        [sk('k0'), undefined],
        [sk('k5'), 55],
        [sk('extra'), 7],
      ]);
      const s2 = await snap(b);
      await b.table<number>('t').writeMany([[sk('k6'), 66]]);
      const s3 = await snap(b);
      const expected = await dump(b, ['t']);
      const c = await fresh();
      await c.restore([s3], FULL);
      assert.deepEqual(await dump(c, ['t']), expected);
      const d = await fresh();
      await d.restore([s2], FULL);
      assert.deepEqual(await d.table('t').getMany([sk('k0'), sk('k5'), sk('k6'), sk('extra')]), [undefined, 55, 6, 7]);
    });
  });
}
