/**
 * `sink.kafka` through real `weir run` processes against a real Kafka 4.x broker: exactly-once
 * append and upsert give exactly the reference to a read_committed reader with no transaction left
 * open; at-least-once gives every row; a transaction of the job left open by an earlier run is
 * aborted at start; a run killed between flush and commit resumes exactly at another parallelism.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startKafkaBroker, type KafkaBroker } from '../../../support/kafka-broker.ts';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runWeir, startWeirWithFaults, tempDir, writeJob } from '../../../support/run-helpers.ts';
import {
  appendAndUpsertJob,
  appendJob,
  appendReference,
  appendedRows,
  upsertedRows,
  upsertReference,
} from './kafka-sink-jobs.ts';
import { defaultTransactionalIdPrefix } from '../../../../engine/connectors/kafka/sink-naming.ts';

/** The newest completed checkpoint's id under a job's checkpoint root (its `chk-N/_metadata`), 0 if none. */
function latestCheckpointId(root: string): number {
  let best = 0;
  for (const job of existsSync(root) ? readdirSync(root) : [])
    for (const d of readdirSync(join(root, job))) {
      const m = /^chk-(\d+)$/.exec(d);
      if (m && existsSync(join(root, job, d, '_metadata'))) best = Math.max(best, Number(m[1]));
    }
  return best;
}

let broker: KafkaBroker;
before(async () => {
  broker = await startKafkaBroker();
});
after(async () => {
  await broker?.stop();
});

test(
  'exactly-once append and upsert: a read_committed reader sees exactly the reference',
  { timeout: 120_000 },
  async () => {
    await broker.createTopic('run-append', 3);
    await broker.createTopic('run-upsert', 2);
    const { dir, cleanup } = tempDir('kafka-run');
    try {
      const job = writeJob(
        dir,
        appendAndUpsertJob({
          name: 'k-run',
          bootstrap: broker.bootstrap,
          topic: 'run-append',
          upsertTopic: 'run-upsert',
          count: 20_000,
        }),
      );
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(broker.openTransactions(defaultTransactionalIdPrefix('k-run', '')), [], 'no open transaction');
      assert.deepEqual(appendedRows(await broker.readCommitted('run-append')), appendReference(20_000));
      assert.deepEqual(upsertedRows(await broker.readCommitted('run-upsert')), upsertReference(20_000));
      assert.ok(
        broker
          .transactions()
          .some((t) => t.transactionalId.startsWith('weir-k-run-ka-s1-') && t.state === 'CompleteCommit'),
        'both subtasks wrote in transactions',
      );
    } finally {
      cleanup();
    }
  },
);

test('at-least-once: every reference row arrives', { timeout: 120_000 }, async () => {
  await broker.createTopic('run-alo', 2);
  const { dir, cleanup } = tempDir('kafka-alo');
  try {
    const job = writeJob(
      dir,
      appendJob({
        name: 'k-alo',
        bootstrap: broker.bootstrap,
        topic: 'run-alo',
        count: 10_000,
        guarantee: 'at-least-once',
      }),
    );
    const r = await runWeir(['run', job, '--quiet'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(appendedRows(await broker.readCommitted('run-alo')), appendReference(10_000));
    assert.deepEqual(broker.openTransactions('weir-k-alo-'), []);
  } finally {
    cleanup();
  }
});

test(
  'a transaction of the job left open by an earlier run is aborted when the job starts',
  { timeout: 120_000 },
  async () => {
    await broker.createTopic('run-orphan');
    const orphanId = `${defaultTransactionalIdPrefix('k-orphan', 'ka')}-s0-0badcafe-0`;
    // Both outlive a slow run: kafkajs's default transaction timeout (60 s) would let the broker abort
    // the orphan itself (proving nothing) and the other job's transaction (failing its abort below).
    const zombie = broker.kafka.producer({
      transactionalId: orphanId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: 600_000,
    });
    await zombie.connect();
    const txn = await zombie.transaction();
    await txn.send({ topic: 'run-orphan', messages: [{ value: '{"orphan":true}' }] });
    await zombie.disconnect(); // its process died with the transaction open
    // Another job's transaction under a longer prefix is not this sink's: it must stay open.
    const otherId = `${defaultTransactionalIdPrefix('k-orphan', 'ka')}x-s0-0badcafe-0`;
    const other = broker.kafka.producer({
      transactionalId: otherId,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: 600_000,
    });
    await other.connect();
    const otherTxn = await other.transaction();
    await otherTxn.send({ topic: 'run-orphan', messages: [{ value: '{"other":true}' }] });
    assert.deepEqual(
      broker
        .openTransactions('weir-k-orphan-')
        .map((t) => t.transactionalId)
        .sort(),
      [orphanId, otherId].sort(),
    );
    const { dir, cleanup } = tempDir('kafka-orphan');
    try {
      const job = writeJob(
        dir,
        appendJob({ name: 'k-orphan', bootstrap: broker.bootstrap, topic: 'run-orphan', count: 1000 }),
      );
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        broker.openTransactions('weir-k-orphan-').map((t) => t.transactionalId),
        [otherId],
        "the job's orphan is aborted, the other job's transaction left alone",
      );
      // Fenced: InitProducerId aborted it and left the id Empty under a new epoch (the orphan's row is gone, below).
      const state = broker.transactions().find((t) => t.transactionalId === orphanId)?.state;
      assert.ok(state === 'Empty' || state === 'CompleteAbort', `the orphan is ${state}`);
      await otherTxn.abort();
      await other.disconnect();
      assert.deepEqual(appendedRows(await broker.readCommitted('run-orphan')), appendReference(1000));
    } finally {
      cleanup();
    }
  },
);

test(
  'killed between flush and commit at parallelism 3, resumed at 2 and then 1: exactly the reference',
  { timeout: 180_000 },
  async () => {
    await broker.createTopic('run-rescale', 6);
    await broker.createTopic('run-rescale-up', 6);
    const { dir, cleanup } = tempDir('kafka-rescale');
    const open = () => broker.openTransactions('weir-k-rescale-');
    try {
      const job = writeJob(
        dir,
        appendAndUpsertJob({
          name: 'k-rescale',
          bootstrap: broker.bootstrap,
          topic: 'run-rescale',
          upsertTopic: 'run-rescale-up',
          count: 30_000,
          rate: 3_000,
          parallelism: 3,
        }),
      );
      // The host dies once checkpoint 3 is stored, before it is committed: its transactions stay open.
      const first = await startWeirWithFaults(['run', job, '--quiet'], dir, { killHostBeforeNotify: 3 }).result;
      assert.equal(first.signal, 'SIGKILL', first.stderr);
      const openAt3 = open();
      assert.ok(openAt3.length >= 3, `checkpoint 3's transactions are open: ${JSON.stringify(openAt3)}`);
      // The resumed run's first checkpoint (ids go on after the stored ones), before the generator catches up.
      const next = latestCheckpointId(join(dir, 'checkpoints')) + 1;
      const second = await startWeirWithFaults(['run', job, '--quiet', '--resume', '--parallelism', '2'], dir, {
        killHostBeforeNotify: next,
      }).result;
      assert.equal(second.signal, 'SIGKILL', second.stderr);
      // Not asserted open: the first checkpoint after a restore may come before any row (a slow start).
      const openAtNext = open();
      assert.ok(
        !openAtNext.some((t) => openAt3.some((o) => o.transactionalId === t.transactionalId)),
        'the first ones ended',
      );
      const last = await runWeir(['run', job, '--quiet', '--resume', '--parallelism', '1'], dir);
      assert.equal(last.code, 0, last.stderr);
      assert.deepEqual(open(), [], 'no open transaction');
      assert.deepEqual(appendedRows(await broker.readCommitted('run-rescale')), appendReference(30_000));
      assert.deepEqual(upsertedRows(await broker.readCommitted('run-rescale-up')), upsertReference(30_000));
    } finally {
      cleanup();
    }
  },
);

test(
  'a missing topic or an unreachable broker fails the run before any task starts, naming the field',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('kafka-bad');
    try {
      const missing = writeJob(
        dir,
        appendJob({ name: 'k-bad', bootstrap: broker.bootstrap, topic: 'no-such-topic', count: 10 }),
      );
      const r = await runWeir(['run', missing, '--quiet'], dir);
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /nodes\[1\]\.config\.topic: Kafka at 127\.0\.0\.1:\d+ has no topic 'no-such-topic' \(create it first\)/,
      );
      const away = writeJob(
        dir,
        appendJob({ name: 'k-bad2', bootstrap: '127.0.0.1:1', topic: 't', count: 10 }),
        'b.json',
      );
      const r2 = await runWeir(['run', away, '--quiet'], dir);
      assert.notEqual(r2.code, 0);
      assert.match(r2.stderr, /nodes\[1\]\.config\.bootstrap: cannot reach Kafka at 127\.0\.0\.1:1/);
      assert.doesNotMatch(r.stderr + r2.stderr, /\n\s+at /, 'no stack trace');
    } finally {
      cleanup();
    }
  },
);
