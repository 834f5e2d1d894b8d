import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutJob } from '../../../renderer/src/model/layout.ts';
import { addNode, addEdge, emptyJob } from '../../../renderer/src/model/ops.ts';

test('layout places a chain left to right without overlaps', async () => {
  let job = emptyJob();
  for (const t of ['source.generator', 'filter', 'window', 'sink.preview', 'sink.file'] as const)
    job = addNode(job, t, { x: 0, y: 0 }).job;
  job = addEdge(job, { from: 'generator-1', to: 'filter-1' });
  job = addEdge(job, { from: 'filter-1', to: 'window-1' });
  job = addEdge(job, { from: 'window-1', to: 'preview-1' });
  job = addEdge(job, { from: 'window-1', to: 'file-sink-1', fromPort: 'late' });
  const pos = await layoutJob(job);
  assert.equal(pos.size, 5);
  const x = (id: string) => pos.get(id)!.x;
  assert.ok(x('generator-1') < x('filter-1') && x('filter-1') < x('window-1') && x('window-1') < x('preview-1'));
  const a = pos.get('preview-1')!;
  const b = pos.get('file-sink-1')!;
  assert.ok(Math.abs(a.y - b.y) >= 72, 'the two sinks do not overlap');
});
