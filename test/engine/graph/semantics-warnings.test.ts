/** Validation warns where Weir computes differently from Flink on purpose (docs/sql-semantics.md). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';

function jobWith(columns: Record<string, string>, aggregates: string, select = 'k, x, ts') {
  return {
    format: 'weir.job/v1',
    name: 'w',
    nodes: [
      {
        id: 'src',
        type: 'source.file',
        config: { path: 'in.jsonl', format: 'jsonl', columns, eventTime: { field: 'ts' } },
      },
      { id: 'm', type: 'map', config: { select } },
      { id: 'w', type: 'window', config: { keyBy: 'k', window: { kind: 'tumbling', size: '1s' }, aggregates } },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'src', to: 'm' },
      { from: 'm', to: 'w' },
      { from: 'w', to: 'out' },
    ],
  };
}

test('SUM and AVG of a DOUBLE column warn (exact in Weir, arrival-ordered in Flink); of integers and DECIMALs not', () => {
  const v = validateJob(
    jobWith({ k: 'STRING', x: 'DOUBLE', ts: 'BIGINT' }, 'SUM(x) AS s, AVG(x) AS a, MAX(x) AS hi, COUNT(*) AS n'),
  );
  assert.ok(v.ok);
  const warnings = v.problems.filter((p) => p.severity === 'warning' && p.path === 'nodes[2].config.aggregates');
  assert.deepEqual(
    warnings.map((w) => w.message.split(':')[0]),
    ['SUM(x) AS s sums a DOUBLE', 'AVG(x) AS a sums a DOUBLE'],
  );
  assert.equal(warnings[0].nodeId, 'w');
  for (const t of ['BIGINT', 'DECIMAL(10, 2)']) {
    const ok = validateJob(jobWith({ k: 'STRING', x: t, ts: 'BIGINT' }, 'SUM(x) AS s, AVG(x) AS a'));
    assert.ok(ok.ok);
    assert.deepEqual(
      ok.problems.filter((p) => /sums a DOUBLE/.test(p.message)),
      [],
      t,
    );
  }
  // A DOUBLE computed in a map upstream is typed too.
  const computed = validateJob(
    jobWith({ k: 'STRING', x: 'BIGINT', ts: 'BIGINT' }, 'SUM(d) AS s', 'k, CAST(x AS DOUBLE) / 3 AS d, ts'),
  );
  assert.ok(computed.ok && computed.problems.some((p) => /SUM\(d\) AS s sums a DOUBLE/.test(p.message)));
});
