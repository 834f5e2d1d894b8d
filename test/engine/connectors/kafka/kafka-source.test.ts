/**
 * `source.kafka` against a real single-node broker (test/support/kafka-broker.ts): a bounded read
 * ends at the latest offsets, skipping aborted transactions and bad records; a restore rescales
 * 1 → 3 → 2 subtasks over 6 partitions exactly; partitions added while the job runs are read; the
 * consumer group receives a checkpoint's offsets only after that checkpoint completed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startKafkaBroker, type KafkaBroker } from '../../../support/kafka-broker.ts';
import {
  runWeir,
  sleep,
  startWeir,
  startWeirWithFaults,
  tempDir,
  waitFor,
  writeJob,
} from '../../../support/run-helpers.ts';
import {
  checkpointOffsets,
  committedIds,
  exactlyOnceViolations,
  latestCompletedCheckpoint as latestCheckpointId,
  produceAborted,
  produceIds,
  produceRaw,
} from '../../../support/kafka-source-data.ts';

let broker: KafkaBroker;
before(async () => {
  broker = await startKafkaBroker();
});
after(async () => {
  await broker?.stop();
});

/** Waits for `n` more checkpoints to complete: a record read twice would be committed by then. */
async function untilCheckpointsAfter(root: string, n: number): Promise<void> {
  const from = latestCheckpointId(root);
  await waitFor(() => latestCheckpointId(root) >= from + n, `${n} more completed checkpoints`, 60_000);
}

function kafkaJob(name: string, topic: string, source: Record<string, unknown>, parallelism = 1) {
  return {
    format: 'weir.job/v1',
    name,
    settings: {
      parallelism,
      stateBackend: 'fs',
      checkpointing: { interval: '100ms', dir: 'checkpoints', retained: 5 },
      restart: { attempts: 5, delay: '100ms' },
    },
    nodes: [
      {
        id: 'src',
        type: 'source.kafka',
        config: { bootstrap: broker.bootstrap, topic, format: 'jsonl', ...source },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [{ from: 'src', to: 'out' }],
  };
}

/** How many subtasks of `src` wrote state into the newest completed checkpoint. */
function subtasksInLatest(root: string): number {
  const id = latestCheckpointId(root);
  for (const job of readdirSync(root)) {
    const meta = join(root, job, `chk-${id}`, '_metadata');
    if (!existsSync(meta)) continue;
    const m = JSON.parse(readFileSync(meta, 'utf8')) as { states: Array<{ operatorId: string }> };
    return m.states.filter((s) => s.operatorId === 'src').length;
  }
  return 0;
}

function assertExactlyOnce(out: string, count: number): void {
  const v = exactlyOnceViolations(committedIds(out), count);
  assert.deepEqual(v.doubled.slice(0, 10), [], `${v.doubled.length} ids committed twice`);
  assert.deepEqual(v.missing.slice(0, 10), [], `${v.missing.length} ids missing`);
  assert.deepEqual(v.extra.slice(0, 10), [], `${v.extra.length} ids that were never written committed`);
}

test('stopAt latest: a bounded read ends at the offsets of its start; aborted transactions and bad records give no rows', async () => {
  const { dir, cleanup } = tempDir('kafka-bounded');
  try {
    const topic = 'bounded';
    await broker.createTopic(topic, 3);
    await produceIds(broker.kafka, topic, 0, 1500, 3);
    await produceAborted(broker.kafka, topic, [-1, -2, -3, -4, -5, -6], 3);
    await produceRaw(broker.kafka, topic, 1, ['not json', '[1, 2]']);
    await produceIds(broker.kafka, topic, 1500, 3000, 3);
    writeJob(dir, kafkaJob('kafka-bounded', topic, { stopAt: 'latest', onBadRecord: 'skip' }, 2));
    const r = await runWeir(['run', 'job.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assertExactlyOnce(join(dir, 'out'), 3000);
    assert.match(
      r.stdout + r.stderr,
      /bounded\/1@\d+: invalid JSON/,
      'the bad record is reported with topic/partition@offset',
    );
    assert.match(r.stdout + r.stderr, /bounded\/1@\d+: expected a JSON object/);
  } finally {
    cleanup();
  }
});

test('a bad record fails the job by default, naming where it is', async () => {
  const { dir, cleanup } = tempDir('kafka-bad');
  try {
    const topic = 'bad';
    await broker.createTopic(topic, 1);
    await produceRaw(broker.kafka, topic, 0, ['{"id": 1}', '{oops']);
    writeJob(dir, kafkaJob('kafka-bad', topic, { stopAt: 'latest' }));
    const r = await runWeir(['run', 'job.json'], dir);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /source\.kafka bad\/0@1: invalid JSON/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    cleanup();
  }
});

test(
  'restore rescales 1 → 3 → 2 subtasks over 6 partitions: every record exactly once',
  { timeout: 240_000 },
  async () => {
    const { dir, cleanup } = tempDir('kafka-rescale');
    try {
      const topic = 'rescale';
      await broker.createTopic(topic, 6);
      writeJob(dir, kafkaJob('kafka-rescale', topic, {}));
      const root = join(dir, 'checkpoints');
      const out = join(dir, 'out');
      let written = 0;
      for (const [i, parallelism] of [1, 3, 2].entries()) {
        await produceIds(broker.kafka, topic, written, written + 3000, 6);
        written += 3000;
        const before = latestCheckpointId(root);
        const run = startWeir(
          ['run', 'job.json', '--parallelism', String(parallelism), ...(i > 0 ? ['--resume'] : [])],
          dir,
        );
        const target = written - 1500;
        await waitFor(() => committedIds(out).length >= target, `${target} committed rows`, 90_000);
        await waitFor(() => latestCheckpointId(root) > before + 1, 'a checkpoint of this run', 60_000);
        assert.equal(subtasksInLatest(root), parallelism, `the checkpoint holds ${parallelism} source subtasks`);
        run.child.kill('SIGKILL');
        await run.result;
      }
      // The last restore, at parallelism 2 again, reads records written meanwhile and stops on SIGINT.
      await produceIds(broker.kafka, topic, written, written + 3000, 6);
      written += 3000;
      const run = startWeir(['run', 'job.json', '--parallelism', '2', '--resume'], dir);
      await waitFor(() => committedIds(out).length >= written, `all ${written} rows committed`, 90_000);
      await untilCheckpointsAfter(root, 2); // a duplicate would arrive with the next commits
      run.child.kill('SIGINT');
      const r = await run.result;
      assert.equal(r.code, 0, r.stderr);
      assertExactlyOnce(out, written);
    } finally {
      cleanup();
    }
  },
);

test('partitions added while the job runs are discovered and read from their start', { timeout: 120_000 }, async () => {
  const { dir, cleanup } = tempDir('kafka-discovery');
  try {
    const topic = 'grows';
    await broker.createTopic(topic, 2);
    await produceIds(broker.kafka, topic, 0, 200, 2);
    writeJob(dir, kafkaJob('kafka-discovery', topic, {}, 2));
    const out = join(dir, 'out');
    const run = startWeir(['run', 'job.json'], dir);
    await waitFor(() => committedIds(out).length >= 200, 'the first partitions read', 60_000);
    const admin = broker.kafka.admin();
    await admin.connect();
    await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
    await admin.disconnect();
    await produceIds(broker.kafka, topic, 200, 600, 4);
    await waitFor(() => committedIds(out).length >= 600, 'the rows of the new partitions', 60_000);
    run.child.kill('SIGINT');
    assert.equal((await run.result).code, 0);
    assertExactlyOnce(out, 600);
  } finally {
    cleanup();
  }
});

test(
  'the group gets the offsets of a checkpoint only once it completed; a restore never reads them',
  { timeout: 120_000 },
  async () => {
    const { dir, cleanup } = tempDir('kafka-group');
    const group = 'weir-monitor';
    try {
      const topic = 'monitored';
      await broker.createTopic(topic, 3);
      writeJob(dir, kafkaJob('kafka-group', topic, { group }));
      const root = join(dir, 'checkpoints');
      // Records keep arriving, so consecutive checkpoints store different offsets.
      let written = 0;
      let producing = true;
      const producer = (async () => {
        while (producing) {
          await produceIds(broker.kafka, topic, written, written + 200, 3);
          written += 200;
          await sleep(20);
        }
      })();
      const N = 6;
      // The host SIGKILLs itself once checkpoint N is stored, before notifying anyone of it.
      const run = startWeirWithFaults(['run', 'job.json'], dir, { killHostBeforeNotify: N });
      await run.result;
      const admin = broker.kafka.admin();
      await admin.connect();
      const groupOffsets = async () => {
        const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
        return new Map(t.partitions.map((p) => [`${topic}:${p.partition}`, Number(p.offset)]));
      };
      const stored = checkpointOffsets(root, N);
      const previous = checkpointOffsets(root, N - 1);
      assert.ok(stored && previous, 'checkpoints N-1 and N are on disk');
      assert.notDeepEqual(stored, previous, 'guard: records arrived between the two checkpoints');
      // The task process may still finish committing N-1 as it goes down.
      let seen = await groupOffsets();
      for (let i = 0; i < 50 && JSON.stringify([...seen]) !== JSON.stringify([...previous]); i++) {
        await sleep(100);
        seen = await groupOffsets();
      }
      assert.deepEqual(seen, previous, "the group holds checkpoint N-1's offsets, not N's");

      // The group is moved elsewhere; a restore still resumes at checkpoint N, not at the group's offsets.
      await admin.setOffsets({
        groupId: group,
        topic,
        partitions: [0, 1, 2].map((partition) => ({ partition, offset: '0' })),
      });
      producing = false;
      await producer;
      const resumed = startWeir(['run', 'job.json', '--resume'], dir);
      await waitFor(() => committedIds(join(dir, 'out')).length >= written, `all ${written} rows`, 60_000);
      await untilCheckpointsAfter(root, 2); // a duplicate would arrive with the next commits
      resumed.child.kill('SIGINT');
      assert.equal((await resumed.result).code, 0);
      assertExactlyOnce(join(dir, 'out'), written);
      await admin.disconnect();
    } finally {
      cleanup();
    }
  },
);
