/**
 * `startJob`: the entry point hosts (the CLI, the Electron main process, `weir serve`) use to run a
 * job. Starting a run is the list of stages below, in this order, each in the module named:
 *
 *   0. refuse at once        restore-point.ts  what needs nothing from disk (--resume on memory)
 *   1. check paths           run-paths.ts      every path read or written is a real file or folder
 *   2. lock                  run-lock.ts       `.weir-lock` in the checkpoint root and each sink folder
 *   3. plan                  common/plan.ts    chains and network edges
 *   4. open storage          checkpoint/       the checkpoint storage of the job's state backend
 *   5. choose restore point  restore-point.ts  --from, --resume or fresh; first id; lineage
 *  5b. check compatibility   restore-compatibility.ts  the restored checkpoint against the job now:
 *                                             maxParallelism, state layouts, dropped state, sink
 *                                             folders with pending transactions, source inputs
 *   6. recover sinks         sink-hooks.ts     committed output made to fit the restore point (each
 *                                             attempt's pending transactions: the master, stage 7)
 *   7. start the master      job-master.ts     attempts, checkpoints, restarts, run events
 *
 * Rules: stages 0-5 change no output (they take the locks, and opening fs or rocksdb storage
 * tidies its own checkpoint root), so a refusal leaves the job's output as it was; stage 6 checks
 * every sink before changing any. Whatever throws releases the locks. A new stage is one function
 * called between two of these: a check of the restore point against the plan goes before stage 6,
 * the first that changes output.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import type { CheckpointStorage } from '../../contracts/checkpoint-storage.ts';
import { createCheckpointStorage, storageRootOf } from '../../checkpoint/storage-factory.ts';
import { planJob } from '../common/plan.ts';
import type { JobHandle, StartJobOptions } from './api.ts';
import { forkLauncher } from './launcher.ts';
import { JobMaster, type JobMasterOptions } from './job-master.ts';
import { chooseRestorePoint, refuseImpossibleRestore, type RestorePoint } from './restore-point.ts';
import { RunLocks } from './run-lock.ts';
import { checkRunPaths } from './run-paths.ts';
import { checkRestoreCompatibility } from './restore-compatibility.ts';
import { layoutOf } from './restore-layout.ts';
import { prepareSinkOutputs, sinkOutputFolders } from './sink-hooks.ts';

export { JobStartError, SampleEdgeError } from './errors.ts';

/** Runs a job holding its run locks (run-lock.ts) until it ends; a refusal releases them. */
export async function startJob(opts: StartJobOptions): Promise<JobHandle> {
  const job = opts.job;
  // 0. refuse at once, before the locks: not even a stale lock of a crashed run is touched
  refuseImpossibleRestore(opts);
  checkRunPaths(job); // 1. check paths
  const locks = lockRun(job, (message) => report(opts, message)); // 2. lock
  try {
    const notices: string[] = []; // reported by the master first, before `created`
    const notice = (message: string) => notices.push(message);
    const plan = planJob(job); // 3. plan
    const storage = await openStorage(job); // 4. open storage
    const point = await chooseRestorePoint(job, storage, opts, notice); // 5. choose the restore point
    checkRestoreCompatibility(job, point.restored, opts, notice); // 5b. check compatibility
    await recoverSinkOutputs(job, point, !!opts.clearOutput, notice); // 6. recover sinks
    const master = new JobMaster({ job, plan, storage, ...point, notices }, masterOptions(opts)); // 7. start the master
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
  return checkpointStorageOf(job).listRetained();
}

/** Stage 2: the job's checkpoint root (fs, rocksdb) and every folder a sink of it writes. */
function lockRun(job: NormalizedJob, notice: (message: string) => void): RunLocks {
  const folders = sinkOutputFolders(job);
  if (job.settings.stateBackend !== 'memory')
    folders.push(storageRootOf({ jobName: job.name, settings: job.settings, baseDir: job.baseDir }));
  return RunLocks.acquire(folders, job.name, notice);
}

/** Stage 4: fs and rocksdb storage clean what an interrupted run left (only under their marker). */
async function openStorage(job: NormalizedJob): Promise<CheckpointStorage> {
  const storage = checkpointStorageOf(job);
  await storage.open();
  return storage;
}

function checkpointStorageOf(job: NormalizedJob): CheckpointStorage {
  const target = { jobName: job.name, settings: job.settings, baseDir: job.baseDir };
  return createCheckpointStorage(target, layoutOf(job));
}

/** Stage 6: every sink is checked against the restore point before any is changed. */
async function recoverSinkOutputs(
  job: NormalizedJob,
  point: RestorePoint,
  clearOutput: boolean,
  notice: (message: string) => void,
): Promise<void> {
  const restored = point.restored ? { id: point.restored.id, lineage: point.lineage } : null;
  await prepareSinkOutputs(job, { restored, lineage: point.lineage, firstId: point.firstId, clearOutput, notice });
}

/** Stage 7: the master's collaborators, the fork launcher unless the host brings its own. */
function masterOptions(opts: StartJobOptions): JobMasterOptions {
  return {
    launcher: opts.launcher ?? forkLauncher(),
    onEvent: opts.onEvent,
    metricsInterval: opts.metricsInterval ?? 250,
    faults: opts.faults,
  };
}

/** A lock taken over from a dead holder is reported at once, before the run's own events. */
function report(opts: StartJobOptions, message: string): void {
  try {
    opts.onEvent?.({ type: 'log', level: 'warn', kind: 'notice', message });
  } catch {
    /* a listener must not break the run */
  }
}
