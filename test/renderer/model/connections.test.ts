import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConnection } from '../../../renderer/src/model/connections.ts';
import { nodeOutputs } from '../../../renderer/src/model/catalog.ts';
import { inputColumns } from '../../../renderer/src/model/columns.ts';
import { addNode, addEdge, emptyJob } from '../../../renderer/src/model/ops.ts';
import type { JobDocument, NodeType } from '../../../engine/graph/types.ts';

function job(...types: NodeType[]): JobDocument {
  let j = emptyJob();
  for (const t of types) j = addNode(j, t, { x: 0, y: 0 }).job;
  return j;
}

test('refuses what the engine rejects, with a reason', () => {
  const j = addEdge(job('source.generator', 'source.file', 'filter', 'union', 'window', 'sink.preview'), {
    from: 'generator-1',
    to: 'filter-1',
  });
  const no = (from: string, to: string, fromPort?: string) => {
    const v = checkConnection(j, { from, to, fromPort });
    assert.equal(v.ok, false, `${from} -> ${to}`);
    return (v as { reason: string }).reason;
  };
  assert.match(no('preview-1', 'filter-1'), /no outputs/);
  assert.match(no('filter-1', 'generator-1'), /takes no inputs/);
  assert.match(no('file-source-1', 'filter-1'), /exactly one input; use a union/);
  assert.match(no('filter-1', 'filter-1'), /itself/);
  assert.match(no('filter-1', 'preview-1', 'late'), /no output port 'late'/);
  assert.match(no('generator-1', 'filter-1'), /already connected/);
  assert.equal(checkConnection(j, { from: 'window-1', to: 'preview-1', fromPort: 'late' }).ok, true);
});

test('a union accepts many inputs and cycles are refused', () => {
  let j = job('source.generator', 'source.file', 'union', 'map');
  j = addEdge(j, { from: 'generator-1', to: 'union-1' });
  assert.equal(checkConnection(j, { from: 'file-source-1', to: 'union-1' }).ok, true);
  j = addEdge(j, { from: 'union-1', to: 'map-1' });
  const v = checkConnection(j, { from: 'map-1', to: 'union-1' });
  assert.equal(v.ok, false);
  assert.match((v as { reason: string }).reason, /cycle/);
});

test("a file source's bad port: shown and connectable to sinks only when it dead-letters", () => {
  let j = job('source.file', 'filter', 'sink.file', 'source.generator');
  const src = () => j.nodes[0];
  assert.deepEqual(nodeOutputs(src()), ['out']);
  assert.deepEqual(nodeOutputs(j.nodes[3]), ['out']);
  const refused = checkConnection(j, { from: 'file-source-1', to: 'file-sink-1', fromPort: 'bad' });
  assert.equal(refused.ok, false);
  assert.match((refused as { reason: string }).reason, /only when 'on a bad record' is 'dead-letter'/);

  j = {
    ...j,
    nodes: j.nodes.map((n, i) => (i === 0 ? { ...n, config: { ...n.config, onBadRecord: 'dead-letter' } } : n)),
  } as JobDocument;
  assert.deepEqual(nodeOutputs(src()), ['out', 'bad']);
  const ok = checkConnection(j, { from: 'file-source-1', to: 'file-sink-1', fromPort: 'bad' });
  assert.deepEqual(ok, { ok: true, edge: { from: 'file-source-1', to: 'file-sink-1', fromPort: 'bad' } });
  const toFilter = checkConnection(j, { from: 'file-source-1', to: 'filter-1', fromPort: 'bad' });
  assert.equal(toFilter.ok, false);
  assert.match((toFilter as { reason: string }).reason, /only go to a sink/);
  assert.equal(checkConnection(j, { from: 'generator-1', to: 'file-sink-1', fromPort: 'bad' }).ok, false);
});

test('a sink fed by a bad port sees the dead-letter columns', () => {
  let j = job('source.file', 'sink.preview');
  j = addEdge(j, { from: 'file-source-1', to: 'preview-1', fromPort: 'bad' });
  assert.deepEqual(inputColumns(j, 'preview-1'), ['file', 'line', 'reason', 'text']);
});

test('a Nexmark source has the ports person, auction and bid, each with its columns downstream', () => {
  let j = job('source.nexmark', 'filter', 'filter');
  assert.deepEqual(nodeOutputs(j.nodes[0]), ['person', 'auction', 'bid']);
  const no = checkConnection(j, { from: 'nexmark-1', to: 'filter-1', fromPort: 'out' });
  assert.equal(no.ok, false);
  assert.match((no as { reason: string }).reason, /no output port 'out' \(ports: person, auction, bid\)/);
  assert.equal(checkConnection(j, { from: 'nexmark-1', to: 'filter-1', fromPort: 'bid' }).ok, true);
  j = addEdge(j, { from: 'nexmark-1', to: 'filter-1', fromPort: 'bid' });
  j = addEdge(j, { from: 'nexmark-1', to: 'filter-2', fromPort: 'person' });
  assert.deepEqual(inputColumns(j, 'filter-1'), ['auction', 'bidder', 'price', 'channel', 'url', 'dateTime', 'extra']);
  assert.deepEqual(inputColumns(j, 'filter-2'), [
    'id',
    'name',
    'emailAddress',
    'creditCard',
    'city',
    'state',
    'dateTime',
    'extra',
  ]);
});
