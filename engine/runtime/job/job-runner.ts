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
import { prepareRun } from './prepare-run.ts';

export { JobStartError, SampleEdgeError } from './errors.ts';

export async function startJob(opts: StartJobOptions): Promise<JobHandle> {
  const run = await prepareRun(opts);
  const master = new JobMaster(run, {
    launcher: opts.launcher ?? forkLauncher(),
    onEvent: opts.onEvent,
    metricsInterval: opts.metricsInterval ?? 250,
  });
  return master.start();
}

/** Retained checkpoints and savepoints of a job (its `checkpointing.dir`), newest first. */
export async function listRetainedCheckpoints(job: NormalizedJob): Promise<RetainedCheckpoint[]> {
  const storage = createCheckpointStorage({ jobName: job.name, settings: job.settings, baseDir: job.baseDir });
  return storage.listRetained();
}
