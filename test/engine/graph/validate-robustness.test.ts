// validateJob never throws: thousands of deterministic random mutations of valid jobs all come
// back as { ok, problems } with a path and a message on every problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateJob } from '../../../engine/graph/validate.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const seeds = ['orders-per-user', 'clicks-sessions', 'sensor-sliding', 'union-late'].map((n) =>
  JSON.parse(readFileSync(join(root, 'examples', n, 'job.weir.json'), 'utf8')),
);

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WEIRD: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'x',
  '5s',
  '-1s',
  'amount >',
  '((',
  'a,,b',
  '*',
  [],
  {},
  [1],
  { x: 1 },
  'window',
  'late',
  'source.file',
  'orders',
  'per_user',
  'COUNT(*) AS n',
  'SUM(',
  "'",
  '"',
];

function containers(
  v: unknown,
  out: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [],
) {
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push({ parent: v, key: i });
      containers(x, out);
    });
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push({ parent: v as Record<string, unknown>, key: k });
      containers(x, out);
    }
  }
  return out;
}

test('validateJob never throws on mutated jobs', () => {
  const r = rng(7);
  let rejected = 0;
  for (let i = 0; i < 3000; i++) {
    const doc = structuredClone(seeds[i % seeds.length]);
    const mutations = 1 + Math.floor(r() * 3);
    for (let m = 0; m < mutations; m++) {
      const slots = containers(doc);
      const { parent, key } = slots[Math.floor(r() * slots.length)];
      const choice = r();
      if (choice < 0.3 && !Array.isArray(parent)) delete parent[key as string];
      else if (choice < 0.4 && Array.isArray(parent)) parent.splice(key as number, 1);
      else if (choice < 0.5 && Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
      else (parent as Record<string | number, unknown>)[key] = structuredClone(WEIRD[Math.floor(r() * WEIRD.length)]);
    }
    let result;
    try {
      result = validateJob(doc);
    } catch (e) {
      assert.fail(`validateJob threw on ${JSON.stringify(doc)}: ${(e as Error).stack}`);
    }
    if (!result.ok) {
      rejected++;
      assert.ok(result.problems.some((p) => p.severity !== 'warning'));
    }
    for (const p of result.problems) {
      assert.equal(typeof p.path, 'string');
      assert.ok(
        p.message.length > 0 && !p.message.includes('[object Object]') && !p.message.includes('undefined'),
        p.message,
      );
    }
  }
  assert.ok(rejected > 1000, `most mutations are invalid (${rejected})`);
});
