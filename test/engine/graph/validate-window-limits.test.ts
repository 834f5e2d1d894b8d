// Window specs whose windows per record (size/slide) would exhaust the window operators' memory
// are refused by validation, with the numbers, before a run fails on "Invalid typed array length".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { MAX_WINDOWS_PER_RECORD, type RangeChecker } from '../../../engine/nodes/ranges.ts';
import { windowJoin } from '../../../engine/nodes/join-window/definition.ts';
import { baseJob, errorsOf, lines, node } from './job-builders.ts';

function problemLines(doc: JobDocument): string[] {
  const r = validateJob(doc);
  return r.ok ? [] : lines(errorsOf(r.problems));
}

test('a sliding window of 10 days by 1 ms is refused with its windows per record', () => {
  const doc = baseJob();
  (node(doc, 'per_user').config as { window: unknown }).window = { kind: 'sliding', size: '10d', slide: '1ms' };
  assert.deepEqual(problemLines(doc), [
    'nodes[2].config.window: size/slide = 864,000,000 windows per record; at most 10,000 (each record updates every window it belongs to): use a larger slide',
  ]);
});

test('at the limit a sliding window is accepted; one more window per record is refused', () => {
  const doc = baseJob();
  const config = node(doc, 'per_user').config as { window: unknown };
  config.window = { kind: 'sliding', size: `${MAX_WINDOWS_PER_RECORD}s`, slide: '1s' };
  assert.deepEqual(problemLines(doc), []);
  config.window = { kind: 'sliding', size: `${MAX_WINDOWS_PER_RECORD * 1000 + 1}ms`, slide: '1s' };
  assert.match(
    problemLines(doc)[0],
    /^nodes\[2\]\.config\.window: size\/slide = 10,001 windows per record; at most 10,000/,
  );
});

test('topn and join.window windows have the same limit', () => {
  const doc = baseJob();
  doc.nodes[2] = {
    id: 'per_user',
    type: 'topn',
    config: {
      partitionBy: 'user',
      orderBy: 'amount DESC',
      limit: 3,
      window: { kind: 'sliding', size: '1h', slide: '1ms' },
    },
  };
  assert.deepEqual(problemLines(doc), [
    'nodes[2].config.window: size/slide = 3,600,000 windows per record; at most 10,000 (each record updates every window it belongs to): use a larger slide',
  ]);

  const errors: string[] = [];
  const r: RangeChecker = { span() {}, timer() {}, int() {}, error: (f, m) => errors.push(`${f}: ${m}`) };
  const join = {
    leftKey: 'k',
    rightKey: 'k',
    select: 'L.k',
    window: { kind: 'sliding', size: '1d', slide: '1s' },
  } as const;
  windowJoin.checkRanges?.(join, r);
  assert.match(errors.join('\n'), /^window: size\/slide = 86,400 windows per record; at most 10,000/);
});
