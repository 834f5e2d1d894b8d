/** source.generator: deterministic per seed, independent of parallelism, bounded out-of-orderness. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GeneratorSourceReader, generatorParams } from '../../../engine/connectors/generator-source.ts';

const ctx = (subtask: number, parallelism: number) => ({
  subtask,
  parallelism,
  resolvePath: (p: string) => p,
  badRecord: () => undefined,
});

async function drain(r: GeneratorSourceReader): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (;;) {
    const b = await r.read(100);
    out.push(...b.rows);
    if (b.end) return out;
  }
}

test('the same records for a seed whatever the parallelism; different seeds differ', async () => {
  const p = generatorParams({ seed: 3, count: 1000, keys: 5, outOfOrderness: 50 });
  const one = await drain(new GeneratorSourceReader(p, ctx(0, 1)));
  const three = (await Promise.all([0, 1, 2].map((s) => drain(new GeneratorSourceReader(p, ctx(s, 3)))))).flat();
  const bySeq = (a: Array<Record<string, unknown>>) => [...a].sort((x, y) => (x.seq as number) - (y.seq as number));
  assert.deepEqual(bySeq(three), one);
  assert.equal(new Set(one.map((r) => r.key)).size, 5);
  const other = await drain(new GeneratorSourceReader(generatorParams({ seed: 4, count: 1000, keys: 5 }), ctx(0, 1)));
  assert.notDeepEqual(
    other.map((r) => r.value),
    one.map((r) => r.value),
  );
});

test('timestamps are out of order by at most outOfOrderness', async () => {
  const rows = await drain(
    new GeneratorSourceReader(generatorParams({ seed: 1, count: 5000, outOfOrderness: 80, step: 10 }), ctx(0, 1)),
  );
  let max = -Infinity;
  let outOfOrder = 0;
  for (const r of rows) {
    const ts = r.ts as number;
    if (ts < max) outOfOrder++;
    assert.ok(ts >= max - 80 - 10, 'never later than the bound');
    max = Math.max(max, ts);
  }
  assert.ok(outOfOrder > 100, 'the stream really is out of order');
});

test('positions: restore continues exactly; a rescale deals the sequence streams out without loss', async () => {
  const p = generatorParams({ seed: 9, count: 999 });
  const a = [new GeneratorSourceReader(p, ctx(0, 2)), new GeneratorSourceReader(p, ctx(1, 2))];
  const before = [...(await a[0].read(100)).rows, ...(await a[1].read(37)).rows];
  const positions = a.map((r) => r.position());
  const after = (
    await Promise.all([0, 1, 2].map((s) => drain(new GeneratorSourceReader(p, ctx(s, 3), positions))))
  ).flat();
  const seqs = [...before, ...after].map((r) => r.seq as number).sort((x, y) => x - y);
  assert.deepEqual(
    seqs,
    Array.from({ length: 999 }, (_, i) => i),
  );
});

test('rate limiting: no more than rate records per second', async () => {
  const r = new GeneratorSourceReader(generatorParams({ count: 100000, rate: 1000 }), ctx(0, 1));
  await new Promise((res) => setTimeout(res, 200));
  const b = await r.read(100000);
  assert.ok(b.rows.length <= 260 && b.rows.length >= 100, `${b.rows.length} records after 200 ms at 1000/s`);
});
