import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { rebaseInputPaths, relocate } from '../../../engine/graph/rebase-paths.ts';

test('relocate names the same file from the new folder, as node:path would', () => {
  const cases: Array<[string, string, string]> = [
    ['data/orders.jsonl', '/w', '/w/mine2/orders-per-user'],
    ['data/orders.jsonl', '/w/a/b', '/w'],
    ['../shared/x.csv', '/w/a', '/w/b/c'],
    ['./x.csv', '/w', '/w'],
    ['x.csv', '/w/a', '/elsewhere'],
  ];
  for (const [file, from, to] of cases) {
    const expected = posix.relative(to, posix.resolve(from, file));
    assert.equal(relocate(file, from, to), expected, `${file} from ${from} to ${to}`);
    assert.equal(posix.resolve(to, relocate(file, from, to)), posix.resolve(from, file));
  }
});

test('rebaseInputPaths rewrites relative inputs only, and lists them', () => {
  const job = {
    format: 'weir.job/v1',
    name: 'j',
    nodes: [
      { id: 'rel', type: 'source.file', config: { path: 'data/a.jsonl', format: 'jsonl' } },
      { id: 'abs', type: 'source.file', config: { path: '/data/b.jsonl', format: 'jsonl' } },
      { id: 'uri', type: 'source.file', config: { path: 'file:///data/c.jsonl', format: 'jsonl' } },
      { id: 'gen', type: 'source.generator', config: {} },
      { id: 'out', type: 'sink.file', config: { path: 'out/x', format: 'jsonl' } },
    ],
    edges: [],
  } as unknown as JobDocument;
  const r = rebaseInputPaths(job, '/w', '/w/mine2/sub');
  assert.deepEqual(r.rebased, [{ nodeId: 'rel', key: 'path', from: 'data/a.jsonl', to: '../../data/a.jsonl' }]);
  assert.deepEqual(
    r.job.nodes.map((n) => (n.config as { path?: string }).path),
    ['../../data/a.jsonl', '/data/b.jsonl', 'file:///data/c.jsonl', undefined, 'out/x'],
  );
  assert.equal(rebaseInputPaths(job, '/w/', '/w').job, job, 'the same folder changes nothing');
});
