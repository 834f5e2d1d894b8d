/**
 * Chaos with a Kafka source on a real broker: a producer keeps writing to 6 partitions (with an
 * aborted transaction and bad records mixed in) while the job (2 source subtasks → file sink) is
 * SIGKILLed as a whole five times and then loses its task process five times; at the end every
 * record written outside the aborted transaction is committed by the file sink exactly once.
 * Kills land a random moment after a checkpoint completed (CHAOS_SEED varies them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startKafkaBroker } from '../support/kafka-broker.ts';
import { childPids, rng, sleep, startWeir, tempDir, waitFor, writeJob } from '../support/run-helpers.ts';
import { latestCheckpointId } from './chaos-runner.ts';
import {
  committedIds,
  exactlyOnceViolations,
  produceAborted,
  produceIds,
  produceRaw,
} from '../support/kafka-source-data.ts';

const PARTITIONS = 6;
const TOTAL = 60_000;
const KILLS = 5;

test(
  'kafka source: SIGKILLs of the whole run and of its task process; every record committed exactly once',
  { timeout: 420_000 },
  async () => {
    const broker = await startKafkaBroker();
    const { dir, cleanup } = tempDir('chaos-kafka-src');
    const random = rng(Number(process.env.CHAOS_SEED ?? 25));
    let written = 0;
    let producing = true;
    try {
      const topic = 'chaos';
      await broker.createTopic(topic, PARTITIONS);
      await produceIds(broker.kafka, topic, 0, 5000, PARTITIONS);
      written = 5000;
      await produceAborted(broker.kafka, topic, [-1, -2, -3, -4, -5, -6, -7], PARTITIONS);
      await produceRaw(broker.kafka, topic, 2, ['{broken', '"a string"']);
      // Paced: the job reads while records arrive, so kills land mid-stream.
      const producer = (async () => {
        while (producing && written < TOTAL) {
          const n = Math.min(500, TOTAL - written);
          await produceIds(broker.kafka, topic, written, written + n, PARTITIONS);
          written += n;
          await sleep(150);
        }
      })();
      const job = writeJob(dir, {
        format: 'weir.job/v1',
        name: 'chaos-kafka',
        settings: {
          parallelism: 2,
          stateBackend: 'fs',
          checkpointing: { interval: '100ms', dir: 'checkpoints' },
          restart: { attempts: 20, delay: '100ms' },
        },
        nodes: [
          {
            id: 'src',
            type: 'source.kafka',
            config: { bootstrap: broker.bootstrap, topic, format: 'jsonl', onBadRecord: 'skip', group: 'chaos' },
          },
          { id: 'keep', type: 'filter', config: { where: 'v >= 0' } },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
        ],
        edges: [
          { from: 'src', to: 'keep' },
          { from: 'keep', to: 'out' },
        ],
      });
      const root = join(dir, 'checkpoints');
      const out = join(dir, 'out');

      let wholeKills = 0;
      let killsWhileWriting = 0;
      for (let i = 0; i < KILLS; i++) {
        const before = latestCheckpointId(root);
        const run = startWeir(['run', job, ...(before > 0 ? ['--resume'] : [])], dir);
        await waitFor(() => latestCheckpointId(root) > before, 'a new completed checkpoint', 90_000);
        await sleep(random() * 300);
        run.child.kill('SIGKILL');
        await run.result;
        wholeKills++;
        if (written < TOTAL) killsWhileWriting++;
      }

      const run = startWeir(['run', job, '--resume'], dir);
      let taskKills = 0;
      for (let i = 0; i < KILLS; i++) {
        const before = latestCheckpointId(root);
        await waitFor(() => latestCheckpointId(root) > before + 2, 'checkpoints after a restart', 90_000);
        await sleep(random() * 300);
        const kids = childPids(run.child.pid!);
        assert.ok(kids.length > 0, 'the run has a task process');
        for (const k of kids) process.kill(k, 'SIGKILL');
        taskKills++;
        if (written < TOTAL) killsWhileWriting++;
      }
      await producer;
      await waitFor(() => committedIds(out).length >= TOTAL, `all ${TOTAL} records committed`, 120_000);
      // A duplicate would come with the next commits: two more checkpoints complete first.
      const last = latestCheckpointId(root);
      await waitFor(() => latestCheckpointId(root) >= last + 2, 'two more completed checkpoints', 60_000);
      run.child.kill('SIGINT');
      const r = await run.result;
      assert.equal(r.code, 0, r.stderr);

      const v = exactlyOnceViolations(committedIds(out), TOTAL);
      assert.deepEqual(v.doubled.slice(0, 10), [], `${v.doubled.length} records committed twice`);
      assert.deepEqual(v.missing.slice(0, 10), [], `${v.missing.length} records missing`);
      assert.deepEqual(v.extra.slice(0, 10), [], 'no aborted or unknown record');
      assert.equal(wholeKills, KILLS);
      assert.equal(taskKills, KILLS);
      // Guard: most kills landed while records were still arriving, not after the job caught up.
      assert.ok(killsWhileWriting >= KILLS, `${killsWhileWriting} of ${2 * KILLS} kills while the producer wrote`);
    } finally {
      producing = false;
      cleanup();
      await broker.stop();
    }
  },
);
