/**
 * A JobMaster on a manual clock (ManualTimers, as the coordinator tests use) with an in-memory
 * task side (fake-task-side.ts): a generator feeding a file sink in a temp folder, so the sink's
 * real recovery hooks (commits recorded, pending transactions committed) run as in a real run.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { planJob } from '../../../../engine/runtime/common/plan.ts';
import { JobMaster } from '../../../../engine/runtime/job/job-master.ts';
import type { JobHandle, RunEvent } from '../../../../engine/runtime/job/api.ts';
import { MemoryCheckpointStorage } from '../../../../engine/checkpoint/memory-storage.ts';
import type { JobStatus } from '../../../../engine/contracts/run-events.ts';
import type { CheckpointStats } from '../../../../engine/contracts/checkpoint.ts';
import { ManualTimers, settle } from '../../checkpoint/coordinator-harness.ts';
import { tempDir } from '../../../support/run-helpers.ts';
import { FakeLauncher, type FakeTaskOptions } from './fake-task-side.ts';

export interface MasterSetup extends FakeTaskOptions {
  /** Merged over: checkpoints every 100 ms, 2 restarts 1 s apart; `interval: null` turns checkpoints off. */
  checkpointing?: Record<string, unknown>;
  restart?: { attempts: number; delay: string };
}

/** The temp folder is removed after test `t`. */
export function startMaster(t: TestContext, o: MasterSetup = {}) {
  const { dir, cleanup } = tempDir('job-master');
  t.after(cleanup);
  const checkpointing = Object.fromEntries(
    Object.entries({ interval: '100ms', timeout: '1s', ...o.checkpointing }).filter(([, v]) => v !== null),
  );
  const doc = {
    format: 'weir.job/v1',
    name: 'jm',
    settings: {
      checkpointing,
      restart: o.restart ?? { attempts: 2, delay: '1s' },
    },
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10 } },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [{ from: 'gen', to: 'out' }],
  };
  const v = validateJob(doc, { baseDir: dir });
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  const job = v.job;
  const plan = planJob(job);
  const timers = new ManualTimers();
  const launcher = new FakeLauncher(plan, o);
  const events: RunEvent[] = [];
  const master = new JobMaster(
    {
      job,
      plan,
      storage: new MemoryCheckpointStorage(job.name),
      restored: null,
      firstId: 1,
      lineage: 'l1',
      notices: [],
    },
    { launcher, timers, metricsInterval: 250, onEvent: (e) => events.push(e) },
  );
  const handle: JobHandle = master.start();
  return {
    dir,
    timers,
    launcher,
    events,
    handle,
    /** Every status the run entered, in order. */
    statuses: (): JobStatus[] => events.flatMap((e) => (e.type === 'job.status' ? [e.status] : [])),
    /** Checkpoint statistics that ended (completed or failed), in order. */
    ended: (): CheckpointStats[] =>
      events.flatMap((e) => (e.type === 'checkpoint' && e.stats.status !== 'in_progress' ? [e.stats] : [])),
  };
}

/** Lets messages and storage writes run until `cond` holds (no clock time passes); fails naming `what`. */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 50 && !cond(); i++) await settle();
  assert.ok(cond(), `never reached: ${what}`);
}
