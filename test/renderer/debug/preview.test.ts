/**
 * The plain parts of the designer's preview and bottleneck view (renderer/src/debug): a node's
 * figures from a preview result, which node a failure names, the trace's path, the preview
 * cleared by loading another document, and the back-pressure levels at Flink's thresholds.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JobDocument } from '../../../engine/graph/types.ts';
import type { OperatorMetrics } from '../../../engine/host/common/api.ts';
import { failedNodes, nodeFigures, pathField, withoutPath } from '../../../renderer/src/debug/previewFigures.ts';
import {
  pipelineChanged,
  previewStore,
  tracedNodes,
  type NodePreview,
  type TraceState,
} from '../../../renderer/src/debug/previewStore.ts';
import { backPressured, backPressureLevel } from '../../../renderer/src/stores/backPressureLevels.ts';
import { docStore } from '../../../renderer/src/state.ts';

const node = (p: Partial<NodePreview>): NodePreview => ({
  nodeId: 'n',
  rowsIn: 0,
  out: {},
  lateRecords: 0,
  badRecords: [],
  watermark: null,
  ...p,
});

const job: JobDocument = {
  format: 'weir.job/v1',
  name: 'j',
  nodes: [
    { id: 'src', type: 'source.file', config: { path: 'data/orders.jsonl', format: 'jsonl' } },
    { id: 'm', type: 'map', config: { select: 'CAST(user AS INT) AS u' } },
  ],
  edges: [{ from: 'src', to: 'm' }],
};

describe('nodeFigures', () => {
  it('counts the main output apart from late and bad ports; a sink counts what it would write', () => {
    const row = { row: { a: 1 }, ts: null };
    const w = node({ rowsIn: 9, out: { out: { count: 5, rows: [row] }, late: { count: 2, rows: [row, row] } } });
    assert.deepEqual(nodeFigures(w, false), { rows: 5, sink: false, late: 2, bad: 0 });
    const dropped = node({ rowsIn: 9, out: { out: { count: 5, rows: [] } }, lateRecords: 3 });
    assert.equal(nodeFigures(dropped, false).late, 3);
    const src = node({
      out: { out: { count: 4, rows: [] }, bad: { count: 1, rows: [] } },
      badRecords: [{ where: 'a.jsonl:3', message: 'invalid JSON' }],
    });
    assert.deepEqual(nodeFigures(src, false), { rows: 4, sink: false, late: 0, bad: 1 });
    assert.deepEqual(nodeFigures(node({ rowsIn: 7, wouldWrite: [] }), true), { rows: 7, sink: true, late: 0, bad: 0 });
  });
});

describe('failedNodes', () => {
  it("names the node of a runtime failure's path, or of a problem, or the source whose file it names", () => {
    const msg = "nodes[1].config.select: CAST('ann' AS INT) failed: the value is not a valid INT";
    assert.deepEqual(
      [...failedNodes(job, msg, [])],
      [['m', "CAST('ann' AS INT) failed: the value is not a valid INT"]],
    );
    assert.equal(pathField(msg), 'select');
    assert.equal(withoutPath('no path here'), 'no path here');
    const problems = [{ path: 'nodes[0].config.path', message: 'no such file' }];
    assert.deepEqual([...failedNodes(job, 'invalid job', problems)], [['src', 'no such file']]);
    assert.deepEqual(
      [...failedNodes(job, 'source.file data/orders.jsonl:3: invalid JSON', [])].map(([id]) => id),
      ['src'],
    );
    assert.equal(failedNodes(job, 'something else', []).size, 0);
  });
});

describe('the trace and the preview store', () => {
  it("a trace's path is its source and every node it changed; nothing while it runs", () => {
    const t: TraceState = {
      source: 'src',
      index: 1,
      status: 'done',
      error: null,
      result: { record: { row: {}, ts: null, port: 'out' }, nodes: { m: { contributed: [], replaced: [] } } },
    };
    assert.deepEqual([...tracedNodes(t)!].sort(), ['m', 'src']);
    assert.equal(tracedNodes({ ...t, status: 'running', result: null }), null);
    assert.equal(tracedNodes({ ...t, result: { record: null, nodes: {} } }), null);
  });

  it('an edit makes the preview stale, moving a node or renaming it does not', () => {
    const moved = { ...job, nodes: job.nodes.map((n) => ({ ...n, position: { x: 5, y: 5 }, name: 'x' })) };
    assert.equal(pipelineChanged(job, moved), false);
    const edited = { ...job, nodes: [job.nodes[0], { ...job.nodes[1], config: { select: 'user' } }] };
    assert.equal(pipelineChanged(job, edited as JobDocument), true);
    assert.equal(pipelineChanged(job, { ...job, edges: [] }), true);
    docStore.getState().load(job, null);
    previewStore.setState({ status: 'done', job: docStore.getState().job, stale: false });
    docStore.getState().commit('edit', (j) => ({ ...j, edges: [] }));
    assert.equal(previewStore.getState().stale, true);
  });

  it('loading another document clears the preview but keeps the sample size', () => {
    previewStore.setState({ status: 'done', records: 25, job, result: { nodes: {}, sources: {}, elapsedMs: 3 } });
    docStore.getState().load(job, null);
    const s = previewStore.getState();
    assert.equal(s.status, 'idle');
    assert.equal(s.result, null);
    assert.equal(s.records, 25);
  });
});

describe('back-pressure levels', () => {
  const m = (bp?: number) => ({ backPressuredMsPerSecond: bp }) as OperatorMetrics;
  it("takes the busiest subtask's share and Flink's OK / LOW / HIGH at 10% and 50%", () => {
    assert.equal(backPressured([m(), m()]), null);
    assert.equal(backPressured([m(120), m(730)]), 0.73);
    assert.equal(backPressureLevel(null), 'ok');
    assert.equal(backPressureLevel(0.09), 'ok');
    assert.equal(backPressureLevel(0.1), 'low');
    assert.equal(backPressureLevel(0.49), 'low');
    assert.equal(backPressureLevel(0.5), 'high');
  });
});
