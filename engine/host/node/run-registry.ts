/**
 * The host's runs by id: starts a run through the runtime, keeps its handle, status and restart
 * count, passes its events through its own throttle (event-throttle.ts) and answers for it until
 * it is pruned. Knows nothing about files, validation or the transports (local-host.ts does).
 *
 * Rules:
 * - One active run per job (same name and folder): two runs would share checkpoints and sinks.
 * - Every run ends with a terminal `job.status` event, even when the runner could not send one.
 * - Finished runs stay listed (with their checkpoint history) up to a bound.
 */
import type { HostEvent, JobStatus, RunInfo } from '../common/api.ts';
import type { NormalizedJob } from '../../graph/types.ts';
import type { JobHandle, TaskLauncher } from '../../runtime/job/api.ts';
import { startJob } from '../../runtime/job/job-runner.ts';
import { HostError, toHostError } from '../common/errors.ts';
import { createEventThrottle, type EventThrottle } from './event-throttle.ts';

const TERMINAL: ReadonlySet<JobStatus> = new Set(['finished', 'stopped', 'failed', 'canceled']);
const KEEP_FINISHED = 50;
/** How long `dispose` waits for a stopped run to end before giving up on it. */
const DISPOSE_WAIT_MS = 5000;

export interface RunRecord {
  readonly info: RunInfo;
  /** The job as it runs (overrides applied): what `sampleEdge` checks names against. */
  readonly job: NormalizedJob;
  readonly key: string;
  handle: JobHandle | null;
  readonly throttle: EventThrottle;
}

export interface StartRunRequest {
  /** Validated, with run overrides applied and `baseDir` set to the job's folder. */
  job: NormalizedJob;
  resume: boolean;
  from?: string;
  /** A fresh run may first delete what earlier runs of the job provably committed. */
  clearOutput?: boolean;
  /** A restore drops the state of nodes the job no longer has (restore-compatibility.ts). */
  allowNonRestoredState?: boolean;
  /** The document's path as the request gave it (RunInfo.document). */
  document?: string;
}

export interface RunRegistryOptions {
  launcher?: TaskLauncher;
  /** Throttle interval per run in ms (default 250). */
  eventInterval?: number;
  /** Where every run's (throttled) events go. */
  emit(event: HostEvent): void;
}

export class RunRegistry {
  private readonly runs = new Map<string, RunRecord>();
  private counter = 0;

  constructor(private readonly opts: RunRegistryOptions) {}

  async start(req: StartRunRequest): Promise<RunInfo> {
    const { job } = req;
    // From the check to runs.set nothing awaits: two concurrent runs of one job cannot both pass.
    const key = `${job.baseDir ?? ''}\0${job.name}`;
    for (const r of this.runs.values()) {
      if (r.key === key && !TERMINAL.has(r.info.status)) {
        throw new HostError('already_running', `job '${job.name}' is already running as ${r.info.runId}`);
      }
    }
    this.pruneFinished();
    const runId = `${job.name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40)}-${Date.now().toString(36)}-${++this.counter}`;
    const info: RunInfo = {
      runId,
      jobName: job.name,
      ...(req.document !== undefined ? { document: req.document } : {}),
      status: 'created',
      startedAt: Date.now(),
      restarts: 0,
      stateBackend: job.settings.stateBackend,
      ...(job.settings.stateBackend === 'memory' ? { memoryStateLimit: job.settings.memoryStateLimit } : {}),
    };
    const throttle = createEventThrottle((events) => events.forEach((e) => this.opts.emit(e)), {
      interval: this.opts.eventInterval,
      // Run to first record shown: the first figures are not held back behind the `running` status.
      firstMetricsAtOnce: true,
    });
    const rec: RunRecord = { info, key, job, handle: null, throttle };
    this.runs.set(runId, rec);
    let lastStatus: JobStatus | null = null;
    const push = (event: HostEvent) => {
      if (event.type === 'job.status') {
        info.status = event.status;
        info.restarts = event.restarts;
        lastStatus = event.status;
      } else if (event.type === 'job.restart') info.restarts = event.restarts;
      throttle.push(event);
    };
    try {
      rec.handle = await startJob({
        job,
        launcher: this.opts.launcher,
        resume: req.resume,
        from: req.from,
        clearOutput: req.clearOutput,
        allowNonRestoredState: req.allowNonRestoredState,
        onEvent: (e) => push({ ...e, runId }),
      });
    } catch (err) {
      this.runs.delete(runId);
      throttle.close();
      throw err;
    }
    if (info.status === 'created') info.status = rec.handle.status;
    void rec.handle.done
      .then(
        (result) => ({ status: result.status as JobStatus, cause: result.cause, restarts: result.restarts }),
        (err: unknown) => ({ status: 'failed' as JobStatus, cause: toHostError(err).message, restarts: info.restarts }),
      )
      .then(({ status, cause, restarts }) => {
        // The runner normally reports its final status itself; make sure listeners always see one.
        if (lastStatus !== status) {
          push({ type: 'job.status', runId, status, restarts, startedAt: info.startedAt, ...(cause ? { cause } : {}) });
        }
        info.status = status;
        throttle.close();
      });
    return { ...info };
  }

  /** The run, live or ended; `not_found` when there is none (or it was pruned). */
  get(runId: string): RunRecord {
    const r = this.runs.get(runId);
    if (!r) throw new HostError('not_found', `no run '${runId}'`);
    return r;
  }

  /** The handle of a run that has not ended; `job_not_running` otherwise. */
  active(runId: string): JobHandle {
    const r = this.get(runId);
    if (!r.handle || TERMINAL.has(r.info.status)) {
      throw new HostError('job_not_running', `run '${runId}' is ${r.info.status}`);
    }
    return r.handle;
  }

  list(): RunInfo[] {
    return [...this.runs.values()].map((r) => ({ ...r.info }));
  }

  /** Stops every run that has not ended and closes every throttle. */
  async dispose(): Promise<void> {
    const live = [...this.runs.values()].filter((r) => r.handle && !TERMINAL.has(r.info.status));
    await Promise.all(
      live.map(async (r) => {
        await r.handle!.stop().catch(() => {});
        await Promise.race([
          r.handle!.done.catch(() => {}),
          new Promise((res) => setTimeout(res, DISPOSE_WAIT_MS).unref()),
        ]);
      }),
    );
    for (const r of this.runs.values()) r.throttle.close();
  }

  private pruneFinished(): void {
    const finished = [...this.runs.values()].filter((r) => TERMINAL.has(r.info.status));
    for (const r of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.runs.delete(r.info.runId);
  }
}
