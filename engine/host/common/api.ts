/**
 * `EngineHost`: the one typed API between the UI and the engine. Electron serves it over IPC,
 * `weir serve` over a WebSocket, tests over an in-memory transport; all three carry the same
 * plain-JSON requests and events (validated at the boundary by `host/protocol.ts`).
 *
 * Every call is async. Failures reject with a `HostError` ({ code, message }), never a stack trace.
 * This module is browser-safe: the renderer imports it.
 */
import type { JobDocument, JobProblem, StateBackendKind, CheckpointMode } from '../../graph/types.ts';
import type { CheckpointStats, RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import type { JobStatus, OperatorMetrics, RunEvent } from '../../contracts/run-events.ts';

export type { JobStatus, OperatorMetrics, RunEvent };

export type HostErrorCode =
  | 'invalid_request'
  | 'invalid_job'
  | 'not_found'
  | 'forbidden_path'
  | 'job_not_running'
  | 'already_running'
  | 'io_error'
  | 'internal'
  | 'unsupported'
  /** A fresh run's sink folder holds committed output: the UI offers Resume, Clear output, Cancel. */
  | 'output_exists'
  /** A restore cannot be proven exact (or a checkpoint folder holds foreign files): nothing changed. */
  | 'restore_refused';

export interface HostErrorShape {
  code: HostErrorCode;
  message: string;
  problems?: JobProblem[];
}

export interface RunOptions {
  /** The job to run; relative paths resolve against `path`'s folder (or the workspace). */
  job: JobDocument;
  path?: string;
  stateBackend?: StateBackendKind;
  checkpointing?: { interval?: string | number | null; mode?: CheckpointMode; incremental?: boolean };
  /** Restore from a retained checkpoint or savepoint path, or 'latest'. */
  restoreFrom?: string | 'latest';
  parallelism?: number;
  /** A fresh run first deletes the output this job's earlier runs committed (see `output_exists`). */
  clearOutput?: boolean;
}

/** What the UI hears: a run's events tagged with its run id, and the shell's menu commands. */
export type HostEvent =
  | (RunEvent extends infer E ? (E extends RunEvent ? E & { runId: string } : never) : never)
  /**
   * A menu command from the shell (Electron menus); the renderer performs it. No run id.
   * `open` with a `path` (Open Recent) opens that file without asking.
   */
  | { type: 'app.command'; command: AppCommand; path?: string };

/** Commands the shell's menus and accelerators send to the renderer. */
export type AppCommand =
  'new' | 'open' | 'save' | 'save-as' | 'export' | 'import-flink-sql' | 'undo' | 'redo' | 'run' | 'stop';
export const APP_COMMANDS: readonly AppCommand[] = [
  'new',
  'open',
  'save',
  'save-as',
  'export',
  'import-flink-sql',
  'undo',
  'redo',
  'run',
  'stop',
];

/** What the renderer needs to know about the shell it runs in. */
export interface HostInfo {
  transport: 'electron' | 'websocket' | 'memory';
  /** Electron: true (open/save go through native dialogs); served mode: false (workspace picker). */
  nativeDialogs: boolean;
  /** Absolute workspace folder that `listFiles`/`readJob`/`writeJob` are confined to. */
  workspace: string;
  /** Document to open on start (e.g. `--example orders-per-user`), or null. */
  initialPath: string | null;
  version: string;
}

export interface RunInfo {
  runId: string;
  jobName: string;
  status: JobStatus;
  startedAt: number;
  restarts: number;
  /** The state backend in effect (the job's setting or the run's override), so a UI that picks up a running job shows it. */
  stateBackend?: StateBackendKind;
  /** Memory backend: the largest operator-subtask snapshot allowed in this run (bytes). */
  memoryStateLimit?: number;
}

export interface ExportResult {
  text: string;
  warnings: JobProblem[];
}

/** A column of a source's data: its name and Flink SQL type (BIGINT, DOUBLE, BOOLEAN, STRING). */
export interface SourceColumn {
  name: string;
  type: string;
}

/** What "Test connection" found: the table's columns and unique keys, or why it failed. */
export interface PostgresTableReport {
  ok: boolean;
  /** Why it failed (ok: false), naming the field: `url: cannot connect to ...`. */
  message?: string;
  /** `schema.table` */
  table?: string;
  columns?: { name: string; type: string; notNull: boolean }[];
  uniqueKeys?: string[][];
}

export interface FileEntry {
  path: string;
  name: string;
  modified: number;
}

/** A place in an imported Flink SQL script (1-based) with what could not become part of the job. */
export interface ImportProblem {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}
export interface ImportResult {
  job: JobDocument;
  problems: ImportProblem[];
}

export interface EngineHost {
  validate(req: { job: unknown }): Promise<{ ok: boolean; problems: JobProblem[]; summary?: string }>;
  run(req: RunOptions): Promise<RunInfo>;
  stop(req: { runId: string; savepoint?: boolean }): Promise<{ savepoint?: string }>;
  triggerSavepoint(req: { runId: string }): Promise<{ path: string; id: number }>;
  /** Fault injection: SIGKILL the run's task process; the run recovers per its restart policy. */
  killTaskProcess(req: { runId: string }): Promise<void>;
  /**
   * Live samples of the records on an edge: on, every subtask of `from` reports the newest records
   * (at most 20, a few times a second) it emits on `fromPort` (default 'out') as `preview` events
   * whose target is `edge:<from>.<fromPort>#<subtask>` (the returned `target` without the subtask).
   * Every edge leaving that port carries the same records; `to`, when given, must be one of them.
   * Off by default and cheap when off; stays on across restarts of the run.
   */
  sampleEdge(req: {
    runId: string;
    from: string;
    fromPort?: 'out' | 'late' | 'bad';
    to?: string;
    on: boolean;
  }): Promise<{ target: string }>;
  listRuns(req: Record<string, never>): Promise<RunInfo[]>;
  listCheckpoints(req: { job: JobDocument; path?: string }): Promise<RetainedCheckpoint[]>;
  checkpointHistory(req: { runId: string }): Promise<CheckpointStats[]>;
  /** `path`: the job file, so relative data paths resolve (the Flink export samples file sources). */
  /** `flinkVersion`, `pathPrefix`: Flink SQL only (`weir export --flink-version`, `--path-prefix`). */
  exportJob(req: {
    job: JobDocument;
    format: 'json' | 'flink-sql';
    path?: string;
    flinkVersion?: '1.19' | '1.20' | '2.x';
    pathPrefix?: string;
  }): Promise<ExportResult>;
  /**
   * A Flink SQL script as a laid-out job (File > Import Flink SQL...). `path`: where the job will
   * be saved, so file:/// data paths inside its folder become relative. Never fails on content:
   * what has no Weir node comes back in `problems` with its line and column.
   */
  importFlinkSql(req: { sql: string; path?: string }): Promise<ImportResult>;

  /**
   * The columns a source node emits, sampled from its data (a file source's first lines, the
   * generator's fixed columns), with Flink SQL types, so the designer offers them in every field.
   * `path`: the job file, so a relative data path resolves; the data must be inside the workspace.
   * A source whose data cannot be read answers `columns: []` and a `message` saying why.
   */
  sampleSource(req: {
    job: JobDocument;
    nodeId: string;
    path?: string;
  }): Promise<{ columns: SourceColumn[]; message?: string }>;
  /**
   * "Test connection" of a PostgreSQL node: connects (password from `passwordEnv` in the host's
   * environment), finds the table and answers its columns and unique keys, or `ok: false` and why.
   */
  testPostgres(req: { url: string; passwordEnv?: string; table: string }): Promise<PostgresTableReport>;
  /** Documents: a workspace folder in served mode; native dialogs feed paths in Electron. */
  listFiles(req: { dir?: string }): Promise<FileEntry[]>;
  readJob(req: { path: string }): Promise<{ path: string; job: unknown }>;
  writeJob(req: { path: string; job: JobDocument }): Promise<{ path: string }>;
  listExamples(
    req: Record<string, never>,
  ): Promise<Array<{ id: string; name: string; description: string; path: string }>>;
  /** Copies the example's folder into the workspace (once) and returns the copy's job. */
  openExample(req: { id: string }): Promise<{ path: string; job: unknown }>;
  hostInfo(req: Record<string, never>): Promise<HostInfo>;
  /** The open document's title and dirty flag (Electron: title bar and close prompt). */
  setDocumentState(req: { title: string; dirty: boolean; path?: string | null }): Promise<void>;
  /** Native dialogs (Electron only; served mode rejects with `unsupported`). null = cancelled. */
  showOpenDialog(req: Record<string, never>): Promise<{ path: string | null }>;
  showSaveDialog(req: { suggestedPath?: string }): Promise<{ path: string | null }>;
  /**
   * A native directory picker: runs (and source sampling) of the document at `path` (absent: the
   * unsaved document) may then read and write inside the picked folder, for the host's lifetime.
   * Answers its real path, or null when cancelled; served mode rejects with `unsupported`.
   */
  grantFolder(req: { path?: string }): Promise<{ folder: string | null }>;
  /** Live events; returns an unsubscribe function. */
  onEvent(listener: (event: HostEvent) => void): () => void;
}

export type HostMethod = Exclude<keyof EngineHost, 'onEvent'>;
