/**
 * The Kafka examples run as the README says, on a real broker: examples/kafka-window windows the
 * orders produce.mjs writes into `orders-per-user`; examples/postgres-cdc-kafka upserts a real
 * PostgreSQL table's changes into `orders-with-tax`. The jobs' broker (and database) addresses are
 * pointed at the test's; everything else is the example as committed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startKafkaBroker, type KafkaBroker, type KafkaRecord } from '../../../support/kafka-broker.ts';
import { startPgCluster } from '../../../support/postgres-cluster.ts';
import { startWeir, tempDir } from '../../../support/run-helpers.ts';
import { ROOT } from '../../../flink-runner/runner-support.ts';

let broker: KafkaBroker;
before(async () => {
  broker = await startKafkaBroker();
});
after(async () => {
  await broker?.stop();
});

/** The example's folder copied into `dir`, its job pointed at the test's broker (and database). */
function copyExample(name: string, dir: string, replace: Record<string, string>): string {
  cpSync(join(ROOT, 'examples', name), dir, { recursive: true });
  const file = join(dir, 'job.weir.json');
  let text = readFileSync(file, 'utf8').replace(/"\.\.\/\.\.\/schemas\//, `"${ROOT}/schemas/`);
  for (const [from, to] of Object.entries(replace)) text = text.split(from).join(to);
  writeFileSync(file, text);
  return file;
}

function runScript(script: string): void {
  const r = spawnSync(process.execPath, [script, broker.bootstrap], { encoding: 'utf8', cwd: ROOT });
  assert.equal(r.status, 0, r.stderr);
}

/** Polls the topic (read_committed) until `done` holds for what it holds. */
async function waitForTopic(topic: string, done: (records: KafkaRecord[]) => boolean, what: string) {
  let records: KafkaRecord[] = [];
  const end = Date.now() + 90_000;
  while (!done((records = await broker.readCommitted(topic)))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${records.length} records`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return records;
}

test(
  'examples/kafka-window: orders from Kafka, per-user windows back into Kafka exactly once',
  { timeout: 180_000 },
  async () => {
    const { dir, cleanup } = tempDir('example-kafka-window');
    try {
      const job = copyExample('kafka-window', dir, { '127.0.0.1:9092': broker.bootstrap });
      runScript(join(ROOT, 'examples', 'kafka-window', 'produce.mjs'));
      const run = startWeir(['run', job], dir);
      const records = await waitForTopic('orders-per-user', (r) => r.length >= 100, 'window results');
      run.child.kill('SIGINT');
      assert.equal((await run.result).code, 0);
      const windows = records.map((r) => JSON.parse(r.value!) as { user: string; window_start: string; n: number });
      const keys = windows.map((w) => `${w.user}|${w.window_start}`);
      assert.equal(new Set(keys).size, keys.length, 'each window once');
      assert.ok(
        records.every((r) => r.key === JSON.stringify({ user: JSON.parse(r.value!).user })),
        'keyed by user',
      );
    } finally {
      cleanup();
    }
  },
);

/** The topic as upsert-kafka reads it: the last value per key, a tombstone deleting it. */
function materialize(records: readonly KafkaRecord[]): Map<string, Record<string, unknown>> {
  const rows = new Map<string, Record<string, unknown>>();
  for (const r of records) {
    if (r.value === null) rows.delete(r.key!);
    else rows.set(r.key!, JSON.parse(r.value) as Record<string, unknown>);
  }
  return rows;
}

test(
  'examples/postgres-cdc-kafka: a table and its changes upserted into Kafka by key, DECIMAL and BIGINT columns as JSON numbers',
  { timeout: 240_000 },
  async () => {
    const pg = await startPgCluster();
    const { dir, cleanup } = tempDir('example-pg-cdc-kafka');
    try {
      await pg.query(readFileSync(join(ROOT, 'examples', 'postgres-cdc-kafka', 'setup.sql'), 'utf8'));
      runScript(join(ROOT, 'examples', 'postgres-cdc-kafka', 'topic.mjs'));
      const job = copyExample('postgres-cdc-kafka', dir, {
        '127.0.0.1:9092': broker.bootstrap,
        'postgresql://postgres@127.0.0.1:5499/postgres': pg.url,
      });
      const run = startWeir(['run', job], dir);
      try {
        await waitForTopic('orders-with-tax', (r) => materialize(r).size === 200, 'the snapshot of 200 orders');
        await pg.query('UPDATE orders SET amount = 1000 WHERE id = 193');
        await pg.query('DELETE FROM orders WHERE id = 191');
        const rows = materialize(
          await waitForTopic(
            'orders-with-tax',
            (r) => materialize(r).size === 199 && materialize(r).get('{"id":193}')?.amount === 1000,
            'the update and the delete',
          ),
        );
        assert.deepEqual(rows.get('{"id":193}'), {
          id: 193,
          customer: 'grace',
          amount: 1000,
          gross: 1200,
          status: 'paid',
          placed_at: new Date(Date.UTC(2024, 0, 1, 12, 0, 0) + 193 * 7000).toISOString(),
        });
        assert.equal(rows.has('{"id":191}'), false, 'the delete is a tombstone');
      } finally {
        run.child.kill('SIGINT');
        const r = await run.result;
        assert.equal(r.code, 0, r.stderr);
      }
    } finally {
      cleanup();
      await pg.stop();
    }
  },
);
