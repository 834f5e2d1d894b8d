/**
 * `startJob`: the entry point hosts (the CLI, the Electron main process, `weir serve`) use to run
 * a job. Prepares the run (prepare-run.ts) and hands it to a `JobMaster` (job-master.ts), whose
 * handle it returns.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import { createCheckpointStorage } from '../../checkpoint/storage-factory.ts';
import type { JobHandle, StartJobOptions } from './api.ts';
import { forkLauncher } from './launcher.ts';
import { JobMaster } from './job-master.ts';
import { prepareRun, refuseImpossibleRun } from './prepare-run.ts';
import { lockRun } from './run-preparation.ts';

export { JobStartError, SampleEdgeError } from './errors.ts';

/** Runs a job holding its run locks (run-lock.ts) until it ends; a refusal releases them. */
export async function startJob(opts: StartJobOptions): Promise<JobHandle> {
  // Refused before the locks, so not even a stale lock of a crashed run is touched.
  refuseImpossibleRun(opts);
  const notice = (message: string) => {
    try {
      opts.onEvent?.({ type: 'log', level: 'warn', kind: 'notice', message });
    } catch {
      /* a listener */
    }
  };
  const locks = lockRun(opts.job, notice);
  try {
    const run = await prepareRun(opts);
    const master = new JobMaster(run, {
      launcher: opts.launcher ?? forkLauncher(),
      onEvent: opts.onEvent,
      metricsInterval: opts.metricsInterval ?? 250,
    });
    const handle = master.start();
    void handle.done.finally(() => locks.release());
    return handle;
  } catch (e) {
    locks.release();
    throw e;
  }
}

/** Retained checkpoints and savepoints of a job (its `checkpointing.dir`), newest first. */
export async function listRetainedCheckpoints(job: NormalizedJob): Promise<RetainedCheckpoint[]> {
  const storage = createCheckpointStorage({ jobName: job.name, settings: job.settings, baseDir: job.baseDir });
  return storage.listRetained();
}
