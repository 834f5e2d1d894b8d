/**
 * `createLocalHost`: the `EngineHost` implemented in-process, on top of the engine's validator,
 * job runner and exporters. Electron's main process and `weir serve` each own one; transports
 * (memory, WebSocket, IPC) only carry its calls and events.
 *
 * It is a facade: the run methods in run-methods.ts (the runs themselves in the run registry,
 * run-registry.ts), how a request's job is read in request-jobs.ts, files in WorkspaceFiles, error
 * mapping in host-errors.ts.
 *
 * Rules:
 * - Every failure leaves as a `HostError` (code + message); stacks stay here.
 * - Files are confined to the workspace (plus read-only examples and files granted by dialogs).
 * - A job or a connection test reads only the environment variables the user allowed.
 * - A job is validated with its run overrides applied (graph/run-overrides.ts), exactly as
 *   `weir run` does: what validation refuses never runs.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { AppCommand, EngineHost, HostEvent, HostInfo } from '../common/api.ts';
import { GENERATOR_COLUMNS } from '../../graph/check-columns.ts';
import { inferFileColumns } from '../../connectors/sample-columns.ts';
import { testPostgresTable } from '../../connectors/postgres/test-connection.ts';
import { probeKafka } from '../../connectors/kafka-probe.ts';
import type { TaskLauncher } from '../../runtime/job/api.ts';
import { forkLauncher } from '../../runtime/job/launcher.ts';
import { spareLauncher, type SpareLauncher } from '../../runtime/job/spare-launcher.ts';
import { exportFlinkSql } from '../../export/flink-sql/index.ts';
import { importFlinkSql } from '../../import/flink-sql/index.ts';
import { exportJobJson } from '../../export/json/index.ts';
import { validateJob, summarizeJob } from '../../graph/validate.ts';
import { HostError } from '../common/errors.ts';
import { guard } from './host-errors.ts';
import { summarizeProblems } from './validated-job.ts';
import { RunRegistry } from './run-registry.ts';
import { runMethods } from './run-methods.ts';
import { requestJobs } from './request-jobs.ts';
import { WorkspaceFiles } from './workspace-files.ts';
import { previewRun } from '../../runtime/preview/preview-run.ts';
import { traceRecord } from '../../runtime/preview/trace-record.ts';
import { envAllowance, envRefusal, type EnvAllowance } from './env-allowance.ts';
import { materializeExample, readExampleIndex } from './examples.ts';
import { checkGatewayAllowed } from './flink-gateway-allow.ts';
import { FlinkRuns } from './flink-runs.ts';
import { memorySettingsStore, type SettingsStore } from './settings-store.ts';
import { readSinkOutput } from './sink-output.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';
import { generatorSource } from '../../nodes/source-generator/definition.ts';

/** What only a desktop shell can do; served mode leaves these out. */
export interface ShellHooks {
  setDocumentState?(state: { title: string; dirty: boolean; path?: string | null }): void;
  showOpenDialog?(): Promise<string | null>;
  showSaveDialog?(suggestedPath?: string): Promise<string | null>;
  /** A directory picker (Electron); its answer is granted to one document's runs. null = cancelled. */
  showFolderDialog?(): Promise<string | null>;
  /** Shows a folder in the system's file manager (Electron). */
  openFolder?(folder: string): Promise<void>;
}

export interface LocalHostOptions {
  workspace: string;
  examplesDir: string;
  /** How task processes start (Electron: utilityProcess); default: the runtime's fork launcher. */
  launcher?: TaskLauncher;
  /**
   * Keep one task process started ahead of the next run (runtime/job/spare-launcher.ts), so a run
   * starts without the fork's wait: for hosts that live on (`weir serve` and the app set it). Off by default.
   */
  spareTaskProcess?: boolean;
  transport?: HostInfo['transport'];
  initialPath?: string | null;
  version?: string;
  /** Throttle interval per run in ms (default 250). */
  eventInterval?: number;
  shell?: ShellHooks;
  /** Environment variables a page may name in passwordEnv besides `WEIR_*` (env-allowance.ts). */
  allowEnv?: EnvAllowance;
  /** Where `getSettings`/`setSettings` keep the app's settings (default: memory, for this host's lifetime). */
  settings?: SettingsStore;
  /** SQL Gateways `flinkRun` may reach besides loopback ones and the settings' (flink-gateway-allow.ts). */
  flinkGateways?: readonly string[];
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

/** The generator's columns with their types, as the Flink exporter types them (value is an integer 0..999). */
const GENERATOR_SOURCE_COLUMNS = GENERATOR_COLUMNS.map((name) => ({
  name,
  type: name === 'key' ? 'STRING' : 'BIGINT',
}));

export function createLocalHost(opts: LocalHostOptions): LocalHost {
  const files = new WorkspaceFiles(opts.workspace, [opts.examplesDir]);
  const listeners = new Set<(e: HostEvent) => void>();
  let initialPath = opts.initialPath ?? null;

  function emit(event: HostEvent): void {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch {
        /* a listener's failure must not stop the others */
      }
    }
  }

  const allowEnv = opts.allowEnv ?? envAllowance();
  const spare: SpareLauncher | null = opts.spareTaskProcess ? spareLauncher(opts.launcher ?? forkLauncher()) : null;
  const runs = new RunRegistry({ launcher: spare ?? opts.launcher, eventInterval: opts.eventInterval, emit });
  const flinkRuns = new FlinkRuns({ emit, interval: opts.eventInterval });
  const settings = opts.settings ?? memorySettingsStore();

  const jobs = requestJobs(files, allowEnv);
  const { validated, baseDirFor, documentOf, sinkCatalogsOf, runnableJob } = jobs;

  const host: LocalHost = {
    files,
    get listenerCount() {
      return listeners.size;
    },

    validate: ({ job }) =>
      guard(async () => {
        const v = validateJob(job, { baseDir: files.workspace, sinkCatalogs: await sinkCatalogsOf(job) });
        return {
          ok: v.ok,
          problems: v.problems,
          summary: v.ok ? summarizeJob(v.job, v.problems) : summarizeProblems(v.problems),
        };
      }),

    ...runMethods(files, jobs, runs),

    exportJob: ({ job, format, path, flinkVersion, pathPrefix }) =>
      guard(async () => {
        const v = validated(job, await baseDirFor(path, 'read'));
        if (format === 'json') return { text: exportJobJson(v.job), warnings: v.problems };
        return exportFlinkSql(v.job, { flinkVersion, pathPrefix });
      }),

    // Sources are read as a run reads them: paths confined, environment variables allowed or refused.
    previewRun: ({ job, path, records }) =>
      guard(async () => previewRun((await runnableJob(job, path, {})).job, { recordsPerSource: records })),
    traceRecord: ({ job, path, records, target }) =>
      guard(async () => {
        const runnable = (await runnableJob(job, path, {})).job;
        if (!runnable.nodes.some((n) => n.id === target.source))
          throw new HostError('not_found', `target.source: no node '${target.source}' in the job`);
        return traceRecord(runnable, target, {
          recordsPerSource: Math.max(records ?? 100, target.index + 1),
        });
      }),

    testPostgres: (req) =>
      guard(async () => {
        const refused = req.passwordEnv === undefined ? null : envRefusal(req.passwordEnv, allowEnv);
        return refused ? { ok: false, message: `passwordEnv: ${refused}` } : testPostgresTable(req);
      }),

    testKafka: (req) => guard(() => probeKafka(req)),

    sampleSource: ({ job, nodeId, path }) =>
      guard(async () => {
        const node = Array.isArray(job.nodes) ? job.nodes.find((n) => n?.id === nodeId) : undefined;
        if (!node) throw new HostError('not_found', `no node '${nodeId}' in the job`);
        if (node.type === generatorSource.type) return { columns: GENERATOR_SOURCE_COLUMNS.map((c) => ({ ...c })) };
        if (node.type !== fileSource.type)
          throw new HostError(
            'unsupported',
            `'${nodeId}' is a ${String(node.type)} node: only sources have data to sample`,
          );
        const config = node.config;
        if (typeof config?.path !== 'string' || !config.path) return { columns: [], message: 'no path set' };
        const baseDir = await baseDirFor(path, 'read');
        // The data is read only inside the workspace (or a granted folder), like every other file.
        let data: string;
        try {
          data = await files.resolve(config.path, 'read', {
            base: baseDir,
            extraRoots: await files.foldersFor(await documentOf(path)),
          });
        } catch (err) {
          if (err instanceof HostError && err.code === 'forbidden_path') throw err;
          return { columns: [], message: `cannot read ${config.path}` };
        }
        if (!existsSync(data))
          return {
            columns: [],
            missing: true,
            message: `cannot read ${config.path}: no such file (looked for ${data})`,
          };
        const r = inferFileColumns({ ...config, path: data });
        return r.ok ? { columns: r.columns } : { columns: [], message: r.message };
      }),

    importFlinkSql: ({ sql, path }) =>
      guard(async () => {
        const baseDir = await baseDirFor(path, 'write');
        return importFlinkSql(sql, {
          baseDir,
          ...(path ? { name: basename(path).replace(/\.weir\.json$|\.json$/i, '') } : {}),
        });
      }),

    readSinkOutput: ({ job, path, nodeId, offset, limit }) =>
      guard(async () =>
        readSinkOutput(
          {
            job,
            nodeId,
            offset: offset ?? 0,
            limit: limit ?? 50,
            baseDir: await baseDirFor(path, 'read'),
            granted: await files.foldersFor(await documentOf(path)),
          },
          files,
          allowEnv,
        ),
      ),
    openFolder: ({ folder }) =>
      guard(async () => {
        if (!opts.shell?.openFolder)
          throw new HostError('unsupported', 'no file manager here: the path is shown instead');
        await opts.shell.openFolder(await files.resolve(folder, 'read'));
      }),

    listFiles: ({ dir }) => guard(() => files.list(dir)),
    readJob: ({ path }) => guard(() => files.readJob(path)),
    readSqlScript: ({ path }) => guard(() => files.readSqlScript(path)),
    writeJob: ({ path, job }) => guard(() => files.writeJob(path, job)),
    listExamples: () => guard(() => readExampleIndex(opts.examplesDir)),
    openExample: ({ id }) =>
      guard(async () => files.readJob(await materializeExample(opts.examplesDir, id, files.workspace))),

    hostInfo: () =>
      guard(async () => ({
        transport: opts.transport ?? 'memory',
        nativeDialogs: Boolean(opts.shell?.showOpenDialog),
        workspace: files.workspace,
        initialPath,
        version: opts.version ?? '0.0.0',
      })),

    setDocumentState: (state) =>
      guard(async () => {
        opts.shell?.setDocumentState?.(state);
      }),
    showOpenDialog: () =>
      guard(async () => {
        if (!opts.shell?.showOpenDialog)
          throw new HostError('unsupported', 'no native dialogs here: pick a file from the workspace');
        const path = await opts.shell.showOpenDialog();
        if (path) await files.grant(path);
        return { path };
      }),
    showSaveDialog: ({ suggestedPath }) =>
      guard(async () => {
        if (!opts.shell?.showSaveDialog)
          throw new HostError('unsupported', 'no native dialogs here: save into the workspace');
        const path = await opts.shell.showSaveDialog(suggestedPath);
        if (path) await files.grant(path);
        return { path };
      }),

    grantFolder: ({ path }) =>
      guard(async () => {
        if (!opts.shell?.showFolderDialog)
          throw new HostError(
            'unsupported',
            'no native dialogs here: keep the data in the workspace or beside the job',
          );
        // Resolved before the dialog: a document we may not write gets no folder either.
        const document = await documentOf(path);
        const picked = await opts.shell.showFolderDialog();
        return { folder: picked ? await files.grantFolder(picked, document) : null };
      }),

    getSettings: () => guard(async () => settings.load()),
    setSettings: (next) =>
      guard(async () => {
        settings.save(next);
        return settings.load();
      }),
    flinkRun: ({ job: input, path, target, flinkVersion, parallelism }) =>
      guard(async () => {
        // Never a proxy to any host the page names: loopback, --flink-gateway or the saved gateway only.
        if (target.kind === 'gateway')
          checkGatewayAllowed(target.url, [...(opts.flinkGateways ?? []), settings.load().flink.gatewayUrl]);
        const { job, baseDir } = await runnableJob(input, path, {});
        return flinkRuns.start({ job, baseDir, target, flinkVersion, ...(parallelism ? { parallelism } : {}) });
      }),
    flinkStop: ({ flinkRunId, savepoint }) => guard(() => flinkRuns.stop(flinkRunId, !!savepoint)),

    onEvent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    setInitialPath(path) {
      initialPath = path;
    },

    sendAppCommand(command, path) {
      emit(path ? { type: 'app.command', command, path } : { type: 'app.command', command });
    },

    async dispose() {
      // First, so that no run restarting while the others stop takes or starts a spare.
      spare?.dispose();
      flinkRuns.dispose();
      await runs.dispose();
      listeners.clear();
    },
  };
  return host;
}
