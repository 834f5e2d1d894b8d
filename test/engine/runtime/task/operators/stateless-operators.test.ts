/** filter, map and union through the operator test harness: records, timestamps, watermarks. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OperatorTestHarness } from '../../../../support/harness/operator-test-harness.ts';
import { FilterOperator } from '../../../../../engine/runtime/task/operators/filter.ts';
import { MapOperator } from '../../../../../engine/runtime/task/operators/map.ts';
import { UnionOperator } from '../../../../../engine/runtime/task/operators/union.ts';
import { createOperator, OperatorConfigError } from '../../../../../engine/runtime/task/operators/registry.ts';
import { validateJob } from '../../../../../engine/graph/validate.ts';

const el = (row: Record<string, unknown>, ts: number) => ({ row, ts });

test('filter keeps matching rows with their timestamps (NULL drops) and forwards watermarks', async () => {
  const h = await OperatorTestHarness.open(() => new FilterOperator("amount > 10 AND name <> 'x'"), { keyed: false });
  await h.processElements([
    el({ amount: 5, name: 'a' }, 1),
    el({ amount: 50, name: 'b' }, 2),
    el({ amount: null, name: 'c' }, 3),
    el({ amount: 99, name: 'x' }, 4),
  ]);
  await h.processWatermark(2);
  await h.processElements([el({ amount: 11, name: 'd' }, 1)]); // out of order: a filter does not care
  assert.deepEqual(h.output(), [el({ amount: 50, name: 'b' }, 2), el({ amount: 11, name: 'd' }, 1)]);
  assert.deepEqual(h.watermarks(), [2]);
  const snap = await h.snapshot(1);
  assert.equal(snap.operator, undefined, 'stateless');
});

test('map projects every row; the event time travels beside the row even when the column is dropped', async () => {
  const h = await OperatorTestHarness.open(() => new MapOperator('UPPER(name) AS n, amount * 2 AS twice'), {
    keyed: false,
  });
  await h.processElements([el({ name: 'a', amount: 2, ts: 100 }, 100), el({ name: 'b', amount: 3, ts: 50 }, 50)]);
  await h.processWatermark(40);
  assert.deepEqual(h.output(), [el({ n: 'A', twice: 4 }, 100), el({ n: 'B', twice: 6 }, 50)]);
  assert.deepEqual(h.watermarks(), [40]);
});

test('union forwards every input unchanged', async () => {
  const h = await OperatorTestHarness.open(() => new UnionOperator(), { keyed: false });
  await h.processElements([el({ a: 1 }, 1)], 0);
  await h.processElements([el({ a: 2 }, 2)], 1);
  assert.deepEqual(
    h.output().map((r) => r.row.a),
    [1, 2],
  );
});

test('operator config errors name the node path, never a stack trace', () => {
  const v = validateJob({
    format: 'weir.job/v1',
    name: 'x',
    nodes: [
      { id: 's', type: 'source.generator', config: { count: 1 } },
      { id: 'f', type: 'filter', config: { where: 'value > 1' } },
      { id: 'p', type: 'sink.preview', config: {} },
    ],
    edges: [
      { from: 's', to: 'f' },
      { from: 'f', to: 'p' },
    ],
  });
  assert.ok(v.ok);
  const node = { ...v.job.nodes[1], config: { where: 'value >' } } as (typeof v.job.nodes)[1];
  const services = {
    lineage: 'x',
    attempt: 1,
    checkpointing: false,
    sendPreview: () => undefined,
    log: () => undefined,
  };
  assert.throws(
    () => createOperator(node, v.job, services),
    (e: Error) => e instanceof OperatorConfigError && /^nodes\[1\]\.config\.where: /.test(e.message),
  );
});
