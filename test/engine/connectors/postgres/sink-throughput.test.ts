/**
 * Rows per second `sink.postgres` writes into a local PostgreSQL (append: one unnest INSERT per
 * 5000 rows, a prepared transaction per checkpoint), against a same-run baseline of one INSERT per
 * row in one transaction. The figures are printed; the test asserts only that batching is several
 * times faster than the baseline, which holds however busy the machine is.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../../../support/postgres-cluster.ts';
import { PostgresSinkOperator } from '../../../../engine/connectors/postgres/sink-operator.ts';
import type { OperatorContext } from '../../../../engine/contracts/operator.ts';

let cluster: PgCluster;
before(async () => {
  cluster = await startPgCluster();
  await cluster.query('CREATE TABLE t (seq bigint, key text, value bigint, ts bigint)');
});
after(async () => {
  await cluster?.stop();
});

const ROWS = 200_000;
const PER_CHECKPOINT = 20_000;
const BATCH = 1000;

const row = (i: number) => ({ seq: i, key: `k${i % 16}`, value: i % 1000, ts: 1_700_000_000_000 + i * 10 });

const ctx: OperatorContext = {
  nodeId: 'pg',
  subtask: 0,
  parallelism: 1,
  maxParallelism: 128,
  keyGroupRange: { start: 0, end: 127 },
  state: null,
  metrics: { lateRecords() {}, badRecords() {} },
  resolvePath: (p) => p,
};

test('append throughput against one INSERT per row', { timeout: 180_000 }, async () => {
  const op = new PostgresSinkOperator(
    { url: cluster.url, table: 't', mode: 'append' },
    { jobName: 'bench', nodeId: 'pg', at: 'nodes[1].config', columns: ['seq', 'key', 'value', 'ts'] },
    { lineage: 'b', attempt: 1, checkpointing: true, sendPreview() {}, log() {} },
  );
  await op.open(ctx, { emit() {}, emitWatermark() {} });
  const t0 = performance.now();
  let checkpoint = 0;
  for (let i = 0; i < ROWS; i += BATCH) {
    const rows = Array.from({ length: BATCH }, (_, j) => row(i + j));
    await op.processBatch({ rows, ts: rows.map((r) => r.ts) });
    if ((i + BATCH) % PER_CHECKPOINT === 0) {
      await op.snapshotState(++checkpoint);
      await op.notifyCheckpointComplete(checkpoint);
    }
  }
  const batchedRate = ROWS / ((performance.now() - t0) / 1000);
  await op.close();
  const [{ n }] = await cluster.query<{ n: string }>('SELECT count(*) AS n FROM t');
  assert.equal(Number(n), ROWS);

  const baselineRows = 10_000;
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  const t1 = performance.now();
  await c.query('BEGIN');
  for (let i = 0; i < baselineRows; i++) {
    const r = row(ROWS + i);
    await c.query('INSERT INTO t VALUES ($1, $2, $3, $4)', [r.seq, r.key, r.value, r.ts]);
  }
  await c.query('COMMIT');
  const baselineRate = baselineRows / ((performance.now() - t1) / 1000);
  await c.end();
  console.log(
    `sink.postgres append: ${Math.round(batchedRate)} rows/s (${ROWS} rows, a prepared transaction per ` +
      `${PER_CHECKPOINT}); one INSERT per row: ${Math.round(baselineRate)} rows/s; ratio ${(batchedRate / baselineRate).toFixed(1)}`,
  );
  assert.ok(batchedRate > 3 * baselineRate, `batched ${batchedRate} vs per-row ${baselineRate}`);
});
