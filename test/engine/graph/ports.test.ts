import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PORTS,
  acceptsInputs,
  canConnect,
  isSink,
  isSource,
  outputPorts,
  reaches,
  type GraphLike,
} from '../../../engine/graph/ports.ts';
import { NODE_TYPES, type JobEdge, type NodeType } from '../../../engine/graph/types.ts';

const graph = (): GraphLike & { nodes: Array<{ id: string; type: NodeType }>; edges: JobEdge[] } => ({
  nodes: [
    { id: 'src', type: 'source.file' },
    { id: 'gen', type: 'source.generator' },
    { id: 'f', type: 'filter' },
    { id: 'u', type: 'union' },
    { id: 'w', type: 'window' },
    { id: 'out', type: 'sink.file' },
    { id: 'p', type: 'sink.preview' },
  ],
  edges: [{ from: 'src', to: 'f' }],
});

test('port lists per node type', () => {
  assert.deepEqual(Object.keys(PORTS).sort(), [...NODE_TYPES].sort());
  assert.deepEqual(outputPorts('window'), ['out', 'late']);
  assert.deepEqual(outputPorts('source.file'), ['out', 'bad']);
  assert.deepEqual(outputPorts('source.generator'), ['out']);
  assert.deepEqual(outputPorts('sink.preview'), []);
  assert.equal(acceptsInputs('source.generator'), false);
  assert.equal(acceptsInputs('union'), true);
  assert.equal(PORTS.union.minInputs, 2);
  assert.equal(PORTS.filter.maxInputs, 1);
  assert.ok(isSource('source.generator') && !isSource('map'));
  assert.ok(isSink('sink.file') && !isSink('window'));
});

test('canConnect accepts valid connections', () => {
  const g = graph();
  assert.deepEqual(canConnect(g, 'f', 'out', 'w'), { ok: true });
  assert.deepEqual(canConnect(g, 'src', undefined, 'u'), { ok: true });
  assert.deepEqual(canConnect(g, 'w', 'late', 'p'), { ok: true });
  g.edges.push({ from: 'gen', to: 'u' }, { from: 'src', to: 'u' });
  assert.deepEqual(canConnect(g, 'f', 'out', 'u'), { ok: true }, 'a union takes many inputs');
});

test('canConnect rejects with a reason', () => {
  const g = graph();
  const reason = (r: ReturnType<typeof canConnect>) => (r.ok ? 'ok' : r.reason);
  assert.equal(reason(canConnect(g, 'out', 'out', 'p')), 'a sink.file node has no outputs');
  assert.equal(reason(canConnect(g, 'f', 'out', 'gen')), 'a source.generator node takes no inputs');
  assert.equal(reason(canConnect(g, 'f', 'late', 'p')), "a filter node has no output port 'late' (ports: out)");
  assert.equal(
    reason(canConnect(g, 'gen', 'out', 'f')),
    'a filter node takes exactly one input; use a union to merge streams',
  );
  assert.equal(reason(canConnect(g, 'src', 'out', 'f')), "'src' is already connected to 'f'");
  assert.equal(reason(canConnect(g, 'f', 'out', 'f')), 'a node cannot connect to itself');
  assert.equal(reason(canConnect(g, 'x', 'out', 'f')), "unknown node 'x'");
  g.edges.push({ from: 'f', to: 'u' }, { from: 'u', to: 'w' });
  g.nodes.push({ id: 'f2', type: 'filter' });
  g.edges.push({ from: 'w', to: 'f2' });
  assert.equal(reason(canConnect(g, 'f2', 'out', 'u')), "connecting 'f2' to 'u' would create a cycle");
  assert.ok(reaches(g, 'src', 'f2'));
  assert.ok(!reaches(g, 'f2', 'src'));
  // Into a full single-input node, a wire that closes a loop is refused as a cycle, not with
  // "use a union" (issue 26: following that advice built the cycle).
  assert.equal(reason(canConnect(g, 'f2', 'out', 'f')), "connecting 'f2' to 'f' would create a cycle");
});
