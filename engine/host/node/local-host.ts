/**
 * `createLocalHost`: the `EngineHost` implemented in-process, on top of the engine's validator,
 * job runner and exporters. Electron's main process and `weir serve` each own one; transports
 * (memory, WebSocket, IPC) only carry its calls and events.
 *
 * Rules:
 * - Every failure leaves as a `HostError` (code + message); stacks stay here.
 * - Files are confined to the workspace (plus read-only examples and files granted by dialogs).
 * - One active run per job (same name and folder): two runs would share checkpoints and sinks.
 * - Each run's events pass through its own throttle (event-throttle.ts) before reaching listeners.
 */
import { dirname } from 'node:path';
import type {
  AppCommand, EngineHost, HostEvent, HostInfo, JobStatus, RunInfo, RunOptions,
} from '../common/api.ts';
import type { JobDocument, NormalizedJob } from '../../graph/types.ts';
import type { JobHandle, TaskLauncher } from '../../runtime/job/api.ts';
import { parseDuration } from '../../graph/units.ts';
import { MAX_TIMER_MS } from '../../graph/check-ranges.ts';
import { HostError, toHostError } from '../common/errors.ts';
import { createEventThrottle, type EventThrottle } from './event-throttle.ts';
import { WorkspaceFiles } from './workspace-files.ts';
import { confineRun } from './run-confinement.ts';
import { materializeExample, readExampleIndex } from './examples.ts';
import { validateJob, summarizeJob } from '../../graph/validate.ts';
import { loadExportFlinkSql, loadListRetained, loadStartJob } from './engine-modules.ts';

const TERMINAL: ReadonlySet<JobStatus> = new Set(['finished', 'stopped', 'failed', 'canceled']);

/** What only a desktop shell can do; served mode leaves these out. */
export interface ShellHooks {
  setDocumentState?(state: { title: string; dirty: boolean; path?: string | null }): void;
  showOpenDialog?(): Promise<string | null>;
  showSaveDialog?(suggestedPath?: string): Promise<string | null>;
}

export interface LocalHostOptions {
  workspace: string;
  examplesDir: string;
  /** How task processes start (Electron: utilityProcess); default: the runtime's fork launcher. */
  launcher?: TaskLauncher;
  transport?: HostInfo['transport'];
  initialPath?: string | null;
  version?: string;
  /** Throttle interval per run in ms (default 250). */
  eventInterval?: number;
  shell?: ShellHooks;
}

export interface LocalHost extends EngineHost {
  readonly files: WorkspaceFiles;
  /** Menu commands from the shell, delivered to the renderer as `app.command` events. */
  sendAppCommand(command: AppCommand, path?: string): void;
  /** The document `hostInfo` tells the renderer to open first. */
  setInitialPath(path: string | null): void;
  /** Event listeners subscribed now (transports unsubscribe when their connection ends). */
  readonly listenerCount: number;
  /** Stop every active run and release timers. */
  dispose(): Promise<void>;
}

interface RunRecord {
  info: RunInfo;
  /** The job as it runs (overrides applied): what `sampleEdge` checks names against. */
  job: NormalizedJob;
  key: string;
  handle: JobHandle | null;
  throttle: EventThrottle;
}

function summarize(problems: Array<{ path: string; message: string; severity?: string }>): string {
  const errors = problems.filter((p) => p.severity !== 'warning');
  const first = errors[0] ?? problems[0];
  return first ? `${errors.length} problem(s); first: ${first.path}: ${first.message}` : 'no problems';
}

export function createLocalHost(opts: LocalHostOptions): LocalHost {
  const files = new WorkspaceFiles(opts.workspace, [opts.examplesDir]);
  const listeners = new Set<(e: HostEvent) => void>();
  const runs = new Map<string, RunRecord>();
  let runCounter = 0;
  let initialPath = opts.initialPath ?? null;

  function emit(event: HostEvent): void {
    for (const l of [...listeners]) {
      try { l(event); } catch { /* a listener's failure must not stop the others */ }
    }
  }

  function validated(input: unknown, baseDir: string): NormalizedJob {
    const v = validateJob(input, { baseDir });
    if (!v.ok) {
      const name = typeof (input as { name?: unknown })?.name === 'string' ? (input as { name: string }).name : 'job';
      throw new HostError('invalid_job', `${name}: ${summarize(v.problems)}`, v.problems);
    }
    return v.job;
  }

  /** A run writes outputs and checkpoints beside its job, so its job must sit where we may write. */
  async function baseDirFor(path: string | undefined, mode: 'read' | 'write'): Promise<string> {
    return path ? dirname(await files.resolve(path, mode)) : files.workspace;
  }

  function applyOverrides(job: NormalizedJob, req: RunOptions): NormalizedJob {
    const settings = { ...job.settings, checkpointing: { ...job.settings.checkpointing } };
    if (req.stateBackend) settings.stateBackend = req.stateBackend;
    const cp = req.checkpointing;
    if (cp) {
      if (cp.interval !== undefined) {
        try {
          settings.checkpointing.interval = cp.interval === null ? null : parseDuration(cp.interval);
          if ((settings.checkpointing.interval ?? 0) > MAX_TIMER_MS) throw new Error(`at most ${MAX_TIMER_MS} ms (Node's timer limit)`);
        } catch (err) {
          throw new HostError('invalid_request', `checkpointing.interval: ${(err as Error).message}`);
        }
      }
      if (cp.mode) settings.checkpointing.mode = cp.mode;
      if (cp.incremental !== undefined) settings.checkpointing.incremental = cp.incremental;
    }
    let nodes = job.nodes;
    if (req.parallelism) {
      settings.parallelism = req.parallelism;
      const explicit = new Set(req.job.nodes?.filter((n) => n.parallelism !== undefined).map((n) => n.id));
      nodes = nodes.map((n) => (explicit.has(n.id) ? n : { ...n, parallelism: req.parallelism! }));
    }
    return { ...job, settings, nodes };
  }

  /** Finished runs stay listed (with their checkpoint history) up to a bound. */
  function pruneFinishedRuns(keep = 50): void {
    const finished = [...runs.values()].filter((r) => TERMINAL.has(r.info.status));
    for (const r of finished.slice(0, Math.max(0, finished.length - keep))) runs.delete(r.info.runId);
  }

  function record(runId: string): RunRecord {
    const r = runs.get(runId);
    if (!r) throw new HostError('not_found', `no run '${runId}'`);
    return r;
  }

  function active(runId: string): JobHandle {
    const r = record(runId);
    if (!r.handle || TERMINAL.has(r.info.status)) {
      throw new HostError('job_not_running', `run '${runId}' is ${r.info.status}`);
    }
    return r.handle;
  }

  async function guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      // The runner's refusals are about what was asked, not internal failures.
      const name = (err as Error | null)?.name;
      if (name === 'JobStartError') throw new HostError('invalid_request', (err as Error).message);
      if (name === 'CheckpointRestoreError') throw new HostError('not_found', (err as Error).message);
      if (name === 'RunLockedError') throw new HostError('already_running', (err as Error).message);
      if (name === 'CheckpointStorageRefusedError') throw new HostError('restore_refused', (err as Error).message);
      if (name === 'SinkOutputError') throw new HostError((err as Error & { code: 'output_exists' | 'restore_refused' }).code, (err as Error).message);
      if (name === 'RunPathError') throw new HostError('invalid_request', (err as Error).message);
      throw toHostError(err);
    }
  }

  const host: LocalHost = {
    files,
    get listenerCount() { return listeners.size; },

    validate: ({ job }) => guard(async () => {
      const v = validateJob(job, { baseDir: files.workspace });
      return { ok: v.ok, problems: v.problems, summary: v.ok ? summarizeJob(v.job, v.problems) : summarize(v.problems) };
    }),

    run: (req) => guard(async () => {
      const baseDir = await baseDirFor(req.path, 'write');
      const job = await confineRun({ ...applyOverrides(validated(req.job, baseDir), req), baseDir }, files, baseDir);
      let from: string | undefined;
      if (req.restoreFrom && req.restoreFrom !== 'latest') {
        // A job's checkpoints live under its own folder, which may be a granted one outside the workspace.
        from = await files.resolve(req.restoreFrom, 'read', { base: baseDir, extraRoot: baseDir });
      }
      const startJob = await loadStartJob();
      // From the check to runs.set nothing awaits: two concurrent runs of one job cannot both pass.
      const key = `${baseDir}\0${job.name}`;
      for (const r of runs.values()) {
        if (r.key === key && !TERMINAL.has(r.info.status)) {
          throw new HostError('already_running', `job '${job.name}' is already running as ${r.info.runId}`);
        }
      }
      pruneFinishedRuns();
      const runId = `${job.name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40)}-${Date.now().toString(36)}-${++runCounter}`;
      const info: RunInfo = {
        runId, jobName: job.name, status: 'created', startedAt: Date.now(), restarts: 0, stateBackend: job.settings.stateBackend,
        ...(job.settings.stateBackend === 'memory' ? { memoryStateLimit: job.settings.memoryStateLimit } : {}),
      };
      const throttle = createEventThrottle((events) => events.forEach(emit), { interval: opts.eventInterval });
      const rec: RunRecord = { info, key, job, handle: null, throttle };
      runs.set(runId, rec);
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
          job, launcher: opts.launcher, resume: req.restoreFrom === 'latest', from, clearOutput: req.clearOutput,
          onEvent: (e) => push({ ...e, runId } as HostEvent),
        });
      } catch (err) {
        runs.delete(runId);
        throttle.close();
        throw err;
      }
      if (info.status === 'created') info.status = rec.handle.status;
      void rec.handle.done.then(
        (result) => ({ status: result.status as JobStatus, cause: result.cause, restarts: result.restarts }),
        (err: unknown) => ({ status: 'failed' as JobStatus, cause: toHostError(err).message, restarts: info.restarts }),
      ).then(({ status, cause, restarts }) => {
        // The runner normally reports its final status itself; make sure listeners always see one.
        if (lastStatus !== status) {
          push({ type: 'job.status', runId, status, restarts, startedAt: info.startedAt, ...(cause ? { cause } : {}) });
        }
        info.status = status;
        throttle.close();
      });
      return { ...info };
    }),

    stop: ({ runId, savepoint }) => guard(() => active(runId).stop({ savepoint })),
    triggerSavepoint: ({ runId }) => guard(() => active(runId).triggerSavepoint()),
    killTaskProcess: ({ runId }) => guard(async () => { active(runId).killTaskProcess(); }),
    sampleEdge: ({ runId, from, fromPort, to, on }) => guard(async () => {
      const r = record(runId);
      const port = fromPort ?? 'out';
      if (to !== undefined && !r.job.edges.some((e) => e.from === from && e.to === to && (e.fromPort ?? 'out') === port)) {
        throw new HostError('invalid_request', `to: job '${r.job.name}' has no edge ${from}${port === 'out' ? '' : `.${port}`} -> ${to}`);
      }
      const handle = on ? active(runId) : r.handle;
      try {
        handle?.sampleEdge({ nodeId: from, port, on });
      } catch (err) {
        if ((err as Error).name === 'SampleEdgeError') throw new HostError('invalid_request', `from: ${(err as Error).message}`);
        throw err;
      }
      return { target: `edge:${from}.${port}` };
    }),
    listRuns: () => guard(async () => [...runs.values()].map((r) => ({ ...r.info }))),
    checkpointHistory: ({ runId }) => guard(async () => record(runId).handle?.checkpointHistory() ?? []),

    listCheckpoints: ({ job, path }) => guard(async () => {
      const normalized = validated(job, await baseDirFor(path, 'read'));
      return (await loadListRetained())(normalized);
    }),

    exportJob: ({ job, format, path }) => guard(async () => {
      const baseDir = await baseDirFor(path, 'read');
      if (format === 'json') {
        const v = validateJob(job, { baseDir });
        return { text: `${JSON.stringify(job, null, 2)}\n`, warnings: v.problems };
      }
      const out = (await loadExportFlinkSql())(validated(job, baseDir));
      if (typeof out === 'string') return { text: out, warnings: [] };
      const o = out as { text?: string; sql?: string; warnings?: [] };
      return { text: o.text ?? o.sql ?? '', warnings: o.warnings ?? [] };
    }),

    listFiles: ({ dir }) => guard(() => files.list(dir)),
    readJob: ({ path }) => guard(() => files.readJob(path)),
    writeJob: ({ path, job }) => guard(() => files.writeJob(path, job as JobDocument)),
    listExamples: () => guard(() => readExampleIndex(opts.examplesDir)),
    openExample: ({ id }) => guard(async () => files.readJob(await materializeExample(opts.examplesDir, id, files.workspace))),

    hostInfo: () => guard(async () => ({
      transport: opts.transport ?? 'memory',
      nativeDialogs: Boolean(opts.shell?.showOpenDialog),
      workspace: files.workspace,
      initialPath,
      version: opts.version ?? '0.0.0',
    })),

    setDocumentState: (state) => guard(async () => { opts.shell?.setDocumentState?.(state); }),
    showOpenDialog: () => guard(async () => {
      if (!opts.shell?.showOpenDialog) throw new HostError('unsupported', 'no native dialogs here: pick a file from the workspace');
      const path = await opts.shell.showOpenDialog();
      if (path) await files.grant(path);
      return { path };
    }),
    showSaveDialog: ({ suggestedPath }) => guard(async () => {
      if (!opts.shell?.showSaveDialog) throw new HostError('unsupported', 'no native dialogs here: save into the workspace');
      const path = await opts.shell.showSaveDialog(suggestedPath);
      if (path) await files.grant(path);
      return { path };
    }),

    onEvent(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },

    setInitialPath(path) {
      initialPath = path;
    },

    sendAppCommand(command, path) {
      emit(path ? { type: 'app.command', command, path } : { type: 'app.command', command });
    },

    async dispose() {
      const live = [...runs.values()].filter((r) => r.handle && !TERMINAL.has(r.info.status));
      await Promise.all(live.map(async (r) => {
        await r.handle!.stop().catch(() => {});
        await Promise.race([r.handle!.done.catch(() => {}), new Promise((res) => setTimeout(res, 5000).unref())]);
      }));
      for (const r of runs.values()) r.throttle.close();
      listeners.clear();
    },
  };
  return host;
}
