/**
 * `startJob`: the host side of one run (Flink's JobMaster). Plans the job, recovers sink folders,
 * launches the task process, drives checkpoints and restarts, and reports RunEvents.
 *
 * Lifecycle rules:
 * - Before any task process starts, every file sink folder is recovered from the checkpoint being
 *   restored: its pending transactions are committed, every other temp transaction is deleted.
 * - A bounded job finishes only after a checkpoint triggered after all sources were exhausted has
 *   completed and been notified (so the last transactions are committed), then tasks close.
 * - Task process death or an operator failure restarts from the latest completed checkpoint while
 *   `settings.restart.attempts` allow; after that the job fails with the cause.
 * - `--resume` with the memory backend is refused before anything (including output) is touched.
 */
import { randomBytes } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import type { NormalizedJob } from '../../graph/types.ts';
import type { CheckpointStats, RetainedCheckpoint, SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import type { CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import { createCheckpointStorage, storageRootOf } from '../../checkpoint/storage-factory.ts';
import type { JobStatus } from '../../contracts/run-events.ts';
import type { JobHandle, JobResult, RunEvent, StartJobOptions, TaskProcessHandle } from './api.ts';
import { planJob, operatorSubtaskCount } from '../common/plan.ts';
// The checkpoint helper's CheckpointCoordinator behind the small driver surface the runner needs
// (trigger, acks, final checkpoint, savepoints, history).
import { CoordinatorCheckpointDriver as CheckpointDriver } from '../../checkpoint/runtime-driver.ts';
import { forkLauncher } from './launcher.ts';
import { recoverSinkFolder, type PendingTransaction } from '../../connectors/file-sink-txn.ts';
import type { HostToTask, TaskToHost } from '../common/task-protocol.ts';
import type { WrappedOperatorState } from '../common/state-assignment.ts';
import type { OutputPort } from '../../contracts/operator.ts';
import { outputPorts } from '../../graph/ports.ts';
import { latestRestorePoint, lockRun, prepareSinks } from './run-preparation.ts';
import { recordCommits } from './sink-output.ts';

const TRACE = !!process.env.WEIR_TRACE;
/**
 * Fault injection for tests: the host kills itself (SIGKILL) right after checkpoint N is stored and
 * before notify(N) is sent, i.e. between the sinks' preCommit and commit (seed section 1.5).
 */
const KILL_HOST_BEFORE_NOTIFY = Number(process.env.WEIR_FAULT_KILL_HOST_BEFORE_NOTIFY ?? NaN);

export class JobStartError extends Error {
  override name = 'JobStartError';
}

/** `sampleEdge` named a node or port the job does not have. */
export class SampleEdgeError extends Error {
  override name = 'SampleEdgeError';
}

export async function listRetainedCheckpoints(job: NormalizedJob): Promise<RetainedCheckpoint[]> {
  const storage = createCheckpointStorage({ jobName: job.name, settings: job.settings, baseDir: job.baseDir });
  return storage.listRetained();
}

/** Sink folders: commit what the restored checkpoint lists as pending, abort everything else. */
function recoverSinks(job: NormalizedJob, states: readonly SubtaskStateSnapshot[]): void {
  const baseDir = job.baseDir ?? process.cwd();
  for (const n of job.nodes) {
    if (n.type !== 'sink.file') continue;
    const pending: PendingTransaction[] = [];
    for (const s of states) {
      if (s.operatorId !== n.id) continue;
      const st = (s.operator as WrappedOperatorState | undefined)?.state as { pending?: PendingTransaction[] } | undefined;
      pending.push(...(st?.pending ?? []));
    }
    recoverSinkFolder(resolvePath(baseDir, n.config.path), pending);
  }
}

function lineageOf(states: readonly SubtaskStateSnapshot[] | undefined): string | null {
  for (const s of states ?? []) {
    const st = (s.operator as WrappedOperatorState | undefined)?.state as { lineage?: string } | undefined;
    if (st && typeof st.lineage === 'string') return st.lineage;
  }
  return null;
}

/** Runs a job holding its run locks (run-preparation.ts) until it ends; a refusal releases them. */
export async function startJob(opts: StartJobOptions): Promise<JobHandle> {
  const job = opts.job;
  // Refused before the locks, so not even a stale lock of the crashed run is touched.
  if (opts.resume && job.settings.stateBackend === 'memory') {
    throw new JobStartError(`cannot --resume job '${job.name}': the memory state backend keeps checkpoints only in the memory `
      + `of the process that ran the job, so they are gone after it exited. Nothing was changed. Use stateBackend 'fs' or `
      + `'rocksdb' to resume after a crash, or run the job from the start without --resume.`);
  }
  const notice = (message: string) => { try { opts.onEvent?.({ type: 'log', level: 'warn', message }); } catch { /* listener */ } };
  const locks = lockRun(job, notice);
  try {
    const handle = await startLockedJob(opts);
    void handle.done.finally(() => locks.release());
    return handle;
  } catch (e) {
    locks.release();
    throw e;
  }
}

async function startLockedJob(opts: StartJobOptions): Promise<JobHandle> {
  const job = opts.job;
  const settings = job.settings;
  const plan = planJob(job);
  const storage = createCheckpointStorage({ jobName: job.name, settings, baseDir: job.baseDir });
  await storage.open();
  let restored: CompletedCheckpoint | null = null;
  let resumeNotice: string | null = null;
  const skipped: string[] = [];
  let highestId = 0;
  if (opts.from) restored = await storage.load(opts.from);
  else if (opts.resume) {
    ({ restored, highestId } = await latestRestorePoint(storage, (m) => skipped.push(m)));
    // Killed before its first checkpoint completed: a sink commits only when a checkpoint completes
    // (a bounded job ends with a final one, and completed checkpoints are retained), so nothing of
    // that run was committed and starting over is exactly-once; its temp files are aborted at launch.
    if (restored === null) {
      if (settings.checkpointing.interval === null) {
        throw new JobStartError(`cannot --resume job '${job.name}': checkpointing is off, so there is no checkpoint to `
          + `resume from. Nothing was changed. Set settings.checkpointing.interval, or run without --resume.`);
      }
      resumeNotice = `nothing to resume yet: job '${job.name}' has no completed checkpoint, so none of its output was `
        + `committed; starting from the beginning`;
    }
  }
  const newest = await storage.latest().catch(() => null);
  const firstId = Math.max(restored?.id ?? 0, newest?.id ?? 0, highestId) + 1;
  const lineage = lineageOf(restored?.states) ?? randomBytes(4).toString('hex');
  const launcher = opts.launcher ?? forkLauncher();
  const emit = (e: RunEvent) => { try { opts.onEvent?.(e); } catch { /* a listener must not break the run */ } };
  for (const m of skipped) emit({ type: 'log', level: 'warn', message: m });
  if (resumeNotice !== null) emit({ type: 'log', level: 'warn', message: resumeNotice });
  prepareSinks(job, restored, lineage, !!opts.clearOutput, (message) => emit({ type: 'log', level: 'warn', message }));

  const startedAt = Date.now();
  let status: JobStatus = 'created';
  let restarts = 0;
  let attempt = 0;
  let proc: TaskProcessHandle | null = null;
  let resolveDone!: (r: JobResult) => void;
  const done = new Promise<JobResult>((r) => { resolveDone = r; });
  let ended = false;
  // Per attempt:
  let tasksFinished = false;
  let exhaustedAfter: number | null = null;
  let lastNotified = 0;
  let closing = false;
  let stopping: { savepoint?: string } | null = null;
  const notifiedWaiters: Array<{ id: number; resolve: () => void }> = [];
  /** Edge samples switched on (`node\0port`): sent again to every new task process. */
  const samples = new Set<string>();

  const setStatus = (s: JobStatus, cause?: string) => {
    status = s;
    emit({ type: 'job.status', status: s, restarts, startedAt, ...(cause ? { cause } : {}) });
  };
  const send = (m: HostToTask) => {
    if (TRACE) process.stderr.write(`[weir trace] host -> task ${m.type} ${m.type === 'trigger' ? m.barrier.id : m.type === 'notify' ? m.checkpointId : ''}\n`);
    proc?.send(m);
  };

  const driver = new CheckpointDriver(settings.checkpointing, storage, {
    trigger: (barrier) => send({ type: 'trigger', barrier }),
    completed: (cp) => {
      if (cp.id === KILL_HOST_BEFORE_NOTIFY) process.kill(process.pid, 'SIGKILL');
      // The sink manifest lists what notify(n) commits before it is sent (sink-output.ts).
      try { recordCommits(job, cp.id, cp.states, lineage); } catch (e) { failure(`recording committed files failed: ${(e as Error).message}`); return; }
      send({ type: 'notify', checkpointId: cp.id });
    },
    stats: (stats: CheckpointStats) => {
      emit({ type: 'checkpoint', stats });
      // The checkpoint in flight when the sources ran dry is not the final one: trigger that next.
      if (stats.status !== 'in_progress') setTimeout(() => { ensureFinalCheckpoint(); if (tasksFinished) maybeFinish(); }, 0);
    },
    tooManyFailures: (reason) => failure(reason),
  }, restored, firstId);
  driver.total = operatorSubtaskCount(plan);

  const finish = (r: JobResult) => {
    if (ended) return;
    ended = true;
    driver.dispose();
    driver.rejectQueued(`job ${r.status}`);
    setStatus(r.status, r.cause);
    resolveDone(r);
  };

  /** After every source is exhausted, a checkpoint triggered later commits the last transactions. */
  function ensureFinalCheckpoint(): void {
    if (ended || closing || !driver.enabled || exhaustedAfter === null) return;
    if (driver.lastTriggeredId > exhaustedAfter || driver.inFlight) return;
    driver.triggerNow('checkpoint');
  }

  function maybeFinish(): void {
    if (!tasksFinished || closing || ended) return;
    if (driver.enabled && (exhaustedAfter === null || lastNotified <= exhaustedAfter)) {
      // The final checkpoint: every task has finished, so each acknowledges right away.
      if (!driver.inFlight) driver.triggerNow('checkpoint');
      return;
    }
    closing = true;
    driver.stop();
    setStatus('finishing');
    send({ type: 'close' });
  }

  /** `checkpointCause`: why a checkpoint in flight failed with the tasks (its stats keep it). */
  function failure(cause: string, checkpointCause = `task failure: ${cause}`): void {
    if (ended || closing) return;
    driver.fail(checkpointCause, false);
    driver.stop();
    const p = proc;
    proc = null;
    p?.kill('SIGKILL');
    if (stopping) { finish({ status: 'stopped', restarts, ...stopping }); return; }
    if (restarts >= settings.restart.attempts) {
      const tried = settings.restart.attempts === 0 ? 'restarts are disabled (settings.restart.attempts = 0)'
        : `gave up after ${restarts} restart${restarts === 1 ? '' : 's'} (settings.restart.attempts = ${settings.restart.attempts})`;
      finish({ status: 'failed', cause: `${cause}; ${tried}`, restarts });
      return;
    }
    restarts++;
    setStatus('restarting', cause);
    emit({ type: 'job.restart', restarts, cause, restoredCheckpoint: driver.latest?.id ?? null });
    setTimeout(() => { if (!ended) launch(); }, settings.restart.delay);
  }

  function onMessage(from: TaskProcessHandle, raw: unknown): void {
    if (from !== proc) return; // a previous attempt's last words
    const m = raw as TaskToHost;
    if (TRACE && m.type !== 'metrics') process.stderr.write(`[weir trace] task -> host ${m.type} ${'ack' in m ? m.ack.checkpointId : 'checkpointId' in m ? m.checkpointId : ''}\n`);
    switch (m.type) {
      case 'ready': setStatus('running'); driver.start(); break;
      case 'ack': void driver.onAck(m.ack); break;
      case 'decline': driver.onDecline(m.checkpointId, m.reason, m.stats); break;
      case 'exhausted':
        exhaustedAfter = driver.lastTriggeredId;
        ensureFinalCheckpoint();
        break;
      case 'finished': tasksFinished = true; maybeFinish(); break;
      case 'notified':
        lastNotified = Math.max(lastNotified, m.checkpointId);
        for (const w of notifiedWaiters.splice(0)) { if (w.id <= lastNotified) w.resolve(); else notifiedWaiters.push(w); }
        maybeFinish();
        break;
      case 'metrics': emit({ type: 'metrics', time: m.time, operators: m.operators }); break;
      case 'preview': emit({ type: 'preview', target: m.target, records: m.records }); break;
      case 'log': emit({ type: 'log', level: m.level, message: m.message }); break;
      case 'failed': failure(m.message); break;
      case 'closed': break;
    }
  }

  function launch(): void {
    attempt++;
    tasksFinished = false;
    exhaustedAfter = null;
    closing = false;
    const cp = driver.latest;
    try {
      if (cp) recordCommits(job, cp.id, cp.states, lineage);
      recoverSinks(job, cp?.states ?? []);
    } catch (e) {
      finish({ status: 'failed', cause: `recovering sink folders failed: ${(e as Error).message}`, restarts });
      return;
    }
    const p = launcher.launch();
    proc = p;
    p.onMessage((m) => onMessage(p, m));
    p.onExit((info) => {
      if (p !== proc) return;
      const how = info.signal ? `killed by ${info.signal}` : `exited with code ${info.code}`;
      if (stopping) { proc = null; finish({ status: 'stopped', restarts, ...stopping }); return; }
      if (closing) {
        proc = null;
        // Every record was processed and committed before `close`; only the goodbye went wrong.
        finish(info.code === 0 ? { status: 'finished', restarts } : { status: 'finished', restarts, cause: `the task process ${how} while closing` });
        return;
      }
      failure(`the task process ${how}`, `task process died: ${how}`);
    });
    send({
      type: 'start', job, plan, attempt, lineage,
      restore: cp ? { checkpointId: cp.id, states: cp.states } : null,
      checkpointDir: settings.stateBackend === 'memory' ? '' : storageRootOf({ jobName: job.name, settings, baseDir: job.baseDir }),
      metricsInterval: opts.metricsInterval ?? 250,
    });
    for (const k of samples) {
      const [nodeId, port] = k.split('\0');
      send({ type: 'sample', nodeId, port: port as OutputPort, on: true });
    }
  }

  const waitNotified = (id: number) => new Promise<void>((resolve) => {
    if (lastNotified >= id) resolve(); else notifiedWaiters.push({ id, resolve });
  });

  const handle: JobHandle = {
    get status() { return status; },
    done,
    async stop(o = {}) {
      if (ended) return {};
      let savepoint: string | undefined;
      if (o.savepoint) {
        const cp = await driver.request('savepoint');
        await waitNotified(cp.id);
        savepoint = cp.location;
      }
      stopping = savepoint ? { savepoint } : {};
      driver.stop();
      if (proc) { closing = true; send({ type: 'close' }); setTimeout(() => proc?.kill('SIGKILL'), 5000).unref(); }
      else finish({ status: 'stopped', restarts, ...stopping });
      await done;
      return savepoint ? { savepoint } : {};
    },
    async triggerSavepoint() {
      const cp = await driver.request('savepoint');
      return { path: cp.location, id: cp.id };
    },
    killTaskProcess() { proc?.kill('SIGKILL'); },
    checkpointHistory() { return driver.checkpointHistory(); },
    sampleEdge({ nodeId, port, on }) {
      const node = job.nodes.find((n) => n.id === nodeId);
      if (!node) throw new SampleEdgeError(`no node '${nodeId}' in job '${job.name}'`);
      const ports = outputPorts(node.type);
      if (!ports.includes(port)) {
        throw new SampleEdgeError(`node '${nodeId}' (${node.type}) has ${ports.length ? `outputs ${ports.map((x) => `'${x}'`).join(', ')}` : 'no outputs'}, not '${port}'`);
      }
      const k = `${nodeId}\0${port}`;
      if (on) samples.add(k); else samples.delete(k);
      if (!ended) send({ type: 'sample', nodeId, port, on });
    },
  };

  setStatus('created');
  launch();
  return handle;
}
