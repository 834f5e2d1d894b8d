/**
 * Property-based (fast-check): `validateJob` is total. Random JSON values, and valid example jobs
 * mutated at random paths (values replaced by arbitrary JSON, huge or negative numbers, keys
 * deleted), always come back as `{ ok, problems }` within a time bound, never as an exception;
 * every problem has a path and a message, and an accepted job has every range respected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { validateJob } from '../../../engine/graph/validate.ts';
import { MAX_TIMER_MS } from '../../../engine/graph/check-ranges.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const examples = ['orders-per-user', 'clicks-sessions', 'sensor-sliding', 'union-late'].map(
  (n) => JSON.parse(readFileSync(join(ROOT, 'examples', n, 'job.weir.json'), 'utf8')) as Record<string, unknown>,
);

function checkTotal(input: unknown): void {
  const started = performance.now();
  const r = validateJob(input, { baseDir: '/tmp' });
  assert.ok(performance.now() - started < 2000, 'validation answers quickly');
  if (!r.ok) {
    assert.ok(r.problems.length > 0);
    for (const p of r.problems)
      assert.ok(typeof p.path === 'string' && typeof p.message === 'string' && p.message.length > 0, JSON.stringify(p));
  } else {
    const s = r.job.settings;
    for (const v of [
      s.checkpointing.interval ?? 0,
      s.checkpointing.timeout,
      s.checkpointing.minPause,
      s.restart.delay,
    ]) {
      assert.ok(Number.isFinite(v) && v >= 0 && v <= MAX_TIMER_MS, `a timer of ${v} ms passed validation`);
    }
  }
}

/** Paths to every value inside a JSON document. */
function paths(
  v: unknown,
  at: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function setAt(doc: unknown, path: Array<string | number>, value: unknown, remove: boolean): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove && !Array.isArray(cur)) delete cur[last];
  else cur[last] = value;
  return copy;
}

const weirdNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e300, -1e20, 2 ** 31, 2 ** 53, -0, 8.64e15 + 1),
);
const weirdString = fc.oneof(
  fc.string(),
  fc.constantFrom('999999d', '25d', '1e300', '-1s', '5 s', 'NaN', 'Infinity', '((', 'a >', '*'),
);
const value = fc.oneof(fc.jsonValue(), weirdNumber, weirdString);

test('random JSON values never make validateJob throw', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      checkTotal(v);
    }),
    { numRuns: 300 },
  );
});

test('example jobs mutated at random paths never make validateJob throw, and accepted ones are in range', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: examples.length - 1 }),
      fc.nat(),
      value,
      fc.boolean(),
      fc.integer({ min: 1, max: 3 }),
      (which, pick, v, remove, times) => {
        let doc: unknown = examples[which];
        for (let i = 0; i < times; i++) {
          const all = paths(doc);
          doc = setAt(doc, all[(pick + i * 7919) % all.length], v, remove);
        }
        checkTotal(doc);
      },
    ),
    { numRuns: 600 },
  );
});
