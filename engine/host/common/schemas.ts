/**
 * The host API, defined once: a zod schema for every request, result and event. The TypeScript
 * types of `EngineHost` (api.ts) are inferred from these, so the API cannot drift from what the
 * transports validate; the engine's own contract types (checkpoint stats, metrics, run events)
 * are pinned to their schemas at compile time below. Browser-safe.
 *
 * Requests are strict (an unknown field is a client bug worth hearing about); results and events
 * are plain objects (unknown fields are dropped on the page side).
 */
import { z } from 'zod';
import type { JobDocument, JobProblem } from '../../graph/types.ts';
import { NEXMARK_PORTS } from '../../graph/nexmark.ts';
import type { CheckpointStats, RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import { JOB_STATUSES, LOG_KINDS, type OperatorMetrics, type RunEvent } from '../../contracts/run-events.ts';
import {
  flinkRunEventSchema,
  flinkRunSnapshot,
  flinkTarget,
  flinkVersion as flinkLine,
  hostSettingsSchema,
} from './flink-schemas.ts';
import { previewResultSchema, previewRunParams, traceResultSchema, traceTarget } from './preview-schemas.ts';

/** Every failure crosses a transport as one of these codes (`HostError`, errors.ts). */
export const HOST_ERROR_CODES = [
  'invalid_request',
  'invalid_job',
  'not_found',
  'forbidden_path',
  'job_not_running',
  'already_running',
  'io_error',
  'internal',
  'unsupported',
  /** A fresh run's sink folder holds committed output: the UI offers Resume, Clear output, Cancel. */
  'output_exists',
  /** A restore cannot be proven exact (or a checkpoint folder holds foreign files): nothing changed. */
  'restore_refused',
  /**
   * A restore would drop the state of nodes the job no longer has: `problems` names each (`nodeId`);
   * the UI asks, and runs again with `allowNonRestoredState` to drop it.
   */
  'non_restored_state',
] as const;

/** Commands the shell's menus and accelerators send to the renderer. */
export const APP_COMMANDS = [
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
] as const;

/** Job documents cross as JSON objects; their structure is the host validator's business. */
const jobObject = z.record(z.string(), z.unknown()).transform((j) => j as unknown as JobDocument);
const empty = z.strictObject({});
const runId = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);
const jobStatus = z.enum(JOB_STATUSES);
const stateBackend = z.enum(['memory', 'fs', 'rocksdb']);
const checkpointKind = z.enum(['checkpoint', 'savepoint']);

const problem = z.object({
  path: z.string(),
  message: z.string(),
  /** Node id when the problem belongs to one node (lets the designer outline it). */
  nodeId: z.string().optional(),
  severity: z.enum(['error', 'warning']).optional(),
});

export const hostErrorSchema = z.object({
  code: z.enum(HOST_ERROR_CODES),
  message: z.string(),
  problems: z.array(problem).optional(),
});

// ---- requests -------------------------------------------------------------------------------

/**
 * Params of every method; the key set is the API's method list. Every call is async and rejects
 * with a `HostError`, never a stack trace.
 */
export const requestSchemas = {
  validate: z.strictObject({ job: z.unknown() }),
  run: z.strictObject({
    /** The job to run; relative paths resolve against `path`'s folder (or the workspace). */
    job: jobObject,
    path: path.optional(),
    stateBackend: stateBackend.optional(),
    checkpointing: z
      .strictObject({
        interval: z.union([z.string(), z.number().nonnegative(), z.null()]).optional(),
        mode: z.enum(['exactly-once', 'at-least-once']).optional(),
        incremental: z.boolean().optional(),
      })
      .optional(),
    /** Restore from a retained checkpoint or savepoint path, or 'latest'. */
    restoreFrom: path.optional(),
    parallelism: z.number().int().min(1).max(1024).optional(),
    /** A fresh run first deletes the output this job's earlier runs committed (see `output_exists`). */
    clearOutput: z.boolean().optional(),
    /** A restore drops the state of nodes the job no longer has instead of refusing (`non_restored_state`). */
    allowNonRestoredState: z.boolean().optional(),
  }),
  stop: z.strictObject({ runId, savepoint: z.boolean().optional() }),
  triggerSavepoint: z.strictObject({ runId }),
  /** Fault injection: SIGKILL the run's task process; the run recovers per its restart policy. */
  killTaskProcess: z.strictObject({ runId }),
  /**
   * Live samples of the records on an edge: on, every subtask of `from` reports the newest records
   * (at most 20, a few times a second) it emits on `fromPort` (default 'out') as `preview` events
   * whose target is `edge:<from>.<fromPort>#<subtask>` (the returned `target` without the subtask).
   * Every edge leaving that port carries the same records; `to`, when given, must be one of them.
   * Off by default and cheap when off; stays on across restarts of the run.
   */
  sampleEdge: z.strictObject({
    runId,
    from: z.string().min(1).max(200),
    fromPort: z.enum(['out', 'late', 'bad', ...NEXMARK_PORTS]).optional(),
    to: z.string().min(1).max(200).optional(),
    on: z.boolean(),
  }),
  listRuns: empty,
  listCheckpoints: z.strictObject({ job: jobObject, path: path.optional() }),
  checkpointHistory: z.strictObject({ runId }),
  /**
   * `path`: the job file, so relative data paths resolve (the Flink export samples file sources).
   * `flinkVersion`, `pathPrefix`: Flink SQL only (`weir export --flink-version`, `--path-prefix`).
   */
  exportJob: z.strictObject({
    job: jobObject,
    format: z.enum(['json', 'flink-sql']),
    path: path.optional(),
    flinkVersion: z.enum(['1.19', '1.20', '2.x']).optional(),
    pathPrefix: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/./i, 'a URI such as s3://bucket/weir/')
      .max(1000)
      .optional(),
  }),
  /**
   * A Flink SQL script as a laid-out job (File > Import Flink SQL...). `path`: where the job will
   * be saved, so file:/// data paths inside its folder become relative. Never fails on content:
   * what has no Weir node comes back in `problems` with its line and column.
   */
  importFlinkSql: z.strictObject({ sql: z.string().max(10_000_000), path: path.optional() }),
  /**
   * The columns a source node emits, sampled from its data (a file source's first lines, the
   * generator's fixed columns), with Flink SQL types, so the designer offers them in every field.
   * `path`: the job file, so a relative data path resolves; the data must be inside the workspace.
   * A source whose data cannot be read answers `columns: []` and a `message` saying why.
   */
  sampleSource: z.strictObject({ job: jobObject, nodeId: z.string().min(1).max(200), path: path.optional() }),
  /**
   * "Test connection" of a PostgreSQL node: connects (password from `passwordEnv` in the host's
   * environment), finds the table and answers its columns and unique keys, or `ok: false` and why.
   */
  testPostgres: z.strictObject({
    url: z.string().min(1).max(2000),
    passwordEnv: z.string().min(1).max(200).optional(),
    table: z.string().min(1).max(500),
  }),
  /**
   * "Test connection" of a Kafka node: lists the brokers' topics with their partition counts and,
   * with `topic`, infers its columns from sampled records; `ok: false` and why when it cannot.
   */
  testKafka: z.strictObject({
    bootstrap: z.string().min(1).max(2000),
    topic: z.string().min(1).max(500).optional(),
  }),
  /**
   * A sink's committed output, newest first (the app's committed-output viewer): a file sink's
   * committed files (never pending transactions) or a PostgreSQL sink's table. `path`: the job
   * file, so a relative sink path resolves; `limit` 0 answers only where it writes and how much.
   */
  readSinkOutput: z.strictObject({
    job: jobObject,
    path: path.optional(),
    nodeId: z.string().min(1).max(200),
    offset: z.number().int().min(0).max(1_000_000_000).optional(),
    limit: z.number().int().min(0).max(1000).optional(),
  }),
  /** Shows a folder in the system's file manager (Electron only; served mode rejects with `unsupported`). */
  openFolder: z.strictObject({ folder: path }),
  /**
   * Documents: a workspace folder in served mode; native dialogs feed paths in Electron. listFiles
   * answers job files (`.weir.json`) and Flink SQL scripts (`.sql`).
   */
  listFiles: z.strictObject({ dir: z.string().max(4096).optional() }),
  readJob: z.strictObject({ path }),
  /** A `.sql` file's text, for Import Flink SQL (listFiles lists them beside the job files). */
  readSqlScript: z.strictObject({ path }),
  writeJob: z.strictObject({ path, job: jobObject }),
  listExamples: empty,
  /** Copies the example's folder into the workspace (once) and returns the copy's job. */
  openExample: z.strictObject({ id: z.string().min(1).max(200) }),
  hostInfo: empty,
  /** The open document's title and dirty flag (Electron: title bar and close prompt). */
  setDocumentState: z.strictObject({
    title: z.string().max(500),
    dirty: z.boolean(),
    path: z.union([path, z.null()]).optional(),
  }),
  /** Native dialogs (Electron only; served mode rejects with `unsupported`). null = cancelled. */
  showOpenDialog: empty,
  showSaveDialog: z.strictObject({ suggestedPath: path.optional() }),
  /**
   * A native directory picker: runs (and source sampling) of the document at `path` (absent: the
   * unsaved document) may then read and write inside the picked folder, for the host's lifetime.
   * Answers its real path, or null when cancelled; served mode rejects with `unsupported`.
   */
  grantFolder: z.strictObject({ path: path.optional() }),
  /** What the app keeps between starts (Electron: electron-store; `weir serve`: a file in the workspace). */
  getSettings: empty,
  setSettings: hostSettingsSchema,
  /**
   * Run on Flink: the job exported to Flink SQL (as `weir flink run`) and run on Weir's runner (a
   * local MiniCluster; needs Java 17+ and `npm run flink:build`) or submitted to a SQL Gateway.
   * Answers at once; what Flink reports arrives as `flink.run` events. `path`: the job file, so
   * relative data paths resolve (and are confined like a run's).
   */
  flinkRun: z.strictObject({
    job: jobObject,
    path: path.optional(),
    target: flinkTarget,
    flinkVersion: flinkLine,
    parallelism: z.number().int().min(1).max(64).optional(),
  }),
  /** Stops a Flink run: a local one ends its JVM; a gateway job may stop with a savepoint beside the job. */
  flinkStop: z.strictObject({ flinkRunId: runId, savepoint: z.boolean().optional() }),
  /**
   * Preview: the job's operators in the host over the first `records` of each source, sinks off
   * (nothing written, no checkpoint), each node's rows, late and bad records (runtime/preview).
   */
  previewRun: z.strictObject({ job: jobObject, path: path.optional(), ...previewRunParams }),
  /** The rows one record of the preview's sample contributed to and replaced, node by node. */
  traceRecord: z.strictObject({ job: jobObject, path: path.optional(), ...previewRunParams, target: traceTarget }),
};

// ---- results --------------------------------------------------------------------------------

const runInfo = z.object({
  runId: z.string(),
  jobName: z.string(),
  /** The document's path as the run request gave it (absent: an unsaved document), so a UI re-attaches a run only to its own document. */
  document: z.string().optional(),
  status: jobStatus,
  startedAt: z.number(),
  restarts: z.number(),
  /** The state backend in effect (the job's setting or the run's override), so a UI that picks up a running job shows it. */
  stateBackend: stateBackend.optional(),
  /** Memory backend: the largest operator-subtask snapshot allowed in this run (bytes). */
  memoryStateLimit: z.number().optional(),
});
const subtaskStats = z.object({
  operatorId: z.string(),
  subtask: z.number(),
  startDelay: z.number(),
  alignmentDuration: z.number(),
  syncDuration: z.number(),
  asyncDuration: z.number(),
  checkpointedBytes: z.number(),
  fullBytes: z.number(),
  limitBytes: z.number().optional(),
});
const checkpointStats = z.object({
  id: z.number(),
  kind: checkpointKind,
  status: z.enum(['in_progress', 'completed', 'failed']),
  triggerTime: z.number(),
  duration: z.number().nullable(),
  acknowledged: z.number(),
  total: z.number(),
  checkpointedBytes: z.number(),
  fullBytes: z.number(),
  subtasks: z.array(subtaskStats),
  failureReason: z.string().optional(),
  location: z.string().optional(),
});
const retained = z.object({
  id: z.number(),
  kind: checkpointKind,
  path: z.string(),
  time: z.number(),
  bytes: z.number(),
});
/** A method that answers nothing (`null` on the wire). */
const voidResult = z.union([z.undefined(), z.null()]).transform((): void => undefined);
const importProblem = z.object({
  /** 1-based place in the imported script. */
  line: z.number(),
  column: z.number(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});

export const resultSchemas = {
  validate: z.object({ ok: z.boolean(), problems: z.array(problem), summary: z.string().optional() }),
  run: runInfo,
  stop: z.object({ savepoint: z.string().optional() }),
  triggerSavepoint: z.object({ path: z.string(), id: z.number() }),
  killTaskProcess: voidResult,
  sampleEdge: z.object({ target: z.string() }),
  listRuns: z.array(runInfo),
  listCheckpoints: z.array(retained),
  checkpointHistory: z.array(checkpointStats),
  exportJob: z.object({ text: z.string(), warnings: z.array(problem) }),
  importFlinkSql: z.object({ job: jobObject, problems: z.array(importProblem) }),
  sampleSource: z.object({
    /** Each column's name and Flink SQL type (BIGINT, DOUBLE, BOOLEAN, STRING). */
    columns: z.array(z.object({ name: z.string(), type: z.string() })),
    message: z.string().optional(),
    /** The data file does not exist (the designer marks the source's path as an error). */
    missing: z.boolean().optional(),
  }),
  testPostgres: z.object({
    ok: z.boolean(),
    /** Why it failed (ok: false), naming the field: `url: cannot connect to ...`. */
    message: z.string().optional(),
    /** `schema.table` */
    table: z.string().optional(),
    columns: z.array(z.object({ name: z.string(), type: z.string(), notNull: z.boolean() })).optional(),
    uniqueKeys: z.array(z.array(z.string())).optional(),
  }),
  testKafka: z.object({
    ok: z.boolean(),
    /** Why it failed (ok: false), naming the field: `bootstrap: cannot reach ...`. */
    message: z.string().optional(),
    topics: z.array(z.object({ topic: z.string(), partitions: z.number() })).optional(),
    /** Columns inferred from the named topic's records (Flink SQL types). */
    columns: z.array(z.object({ name: z.string(), type: z.string() })).optional(),
  }),
  readSinkOutput: z.object({
    /** `folder`: an absolute folder of committed files; `table`: a PostgreSQL `schema.table`. */
    kind: z.enum(['folder', 'table']),
    location: z.string(),
    offset: z.number(),
    /** Newest first, from `offset`. */
    rows: z.array(z.record(z.string(), z.unknown())),
    /** Committed rows in all (in the files read: see `message`). */
    total: z.number(),
    /** Committed files in the folder (file sinks). */
    files: z.number().optional(),
    message: z.string().optional(),
  }),
  openFolder: voidResult,
  listFiles: z.array(z.object({ path: z.string(), name: z.string(), modified: z.number() })),
  readJob: z.object({ path: z.string(), job: z.unknown() }),
  readSqlScript: z.object({ path: z.string(), sql: z.string() }),
  writeJob: z.object({ path: z.string() }),
  listExamples: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), path: z.string() })),
  openExample: z.object({ path: z.string(), job: z.unknown() }),
  hostInfo: z.object({
    transport: z.enum(['electron', 'websocket', 'memory']),
    /** Electron: true (open/save go through native dialogs); served mode: false (workspace picker). */
    nativeDialogs: z.boolean(),
    /** Absolute workspace folder that `listFiles`/`readJob`/`writeJob` are confined to. */
    workspace: z.string(),
    /** Document to open on start (e.g. `--example orders-per-user`), or null. */
    initialPath: z.string().nullable(),
    version: z.string(),
  }),
  setDocumentState: voidResult,
  showOpenDialog: z.object({ path: z.string().nullable() }),
  showSaveDialog: z.object({ path: z.string().nullable() }),
  grantFolder: z.object({ folder: z.string().nullable() }),
  getSettings: hostSettingsSchema,
  setSettings: hostSettingsSchema,
  flinkRun: flinkRunSnapshot,
  flinkStop: z.object({ savepoint: z.string().optional() }),
  previewRun: previewResultSchema,
  traceRecord: traceResultSchema,
} satisfies { [M in keyof typeof requestSchemas]: z.ZodType };

// ---- events ---------------------------------------------------------------------------------

const operatorMetrics = z.object({
  nodeId: z.string(),
  subtask: z.number(),
  recordsIn: z.number(),
  recordsOut: z.number(),
  rateIn: z.number(),
  rateOut: z.number(),
  watermark: z.number().nullable(),
  inputWatermarks: z.array(z.object({ channel: z.string(), watermark: z.number().nullable(), idle: z.boolean() })),
  maxEventTime: z.number().nullable(),
  lateRecords: z.number(),
  badRecords: z.number(),
  stateBytes: z.number(),
  stateDiskBytes: z.number(),
  backPressure: z.number(),
  busyMsPerSecond: z.number().optional(),
  backPressuredMsPerSecond: z.number().optional(),
  idleMsPerSecond: z.number().optional(),
  pendingRecords: z.number().optional(),
  pendingFiles: z.number().optional(),
  idle: z.boolean().optional(),
  splits: z.array(z.object({ split: z.string(), offset: z.number(), lag: z.number() })).optional(),
});

/** A run's events tagged with its run id, and the shell's menu commands (no run id). */
export const hostEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('job.status'),
    runId: z.string(),
    status: jobStatus,
    cause: z.string().optional(),
    restarts: z.number(),
    startedAt: z.number(),
  }),
  z.object({
    type: z.literal('job.restart'),
    runId: z.string(),
    restarts: z.number(),
    cause: z.string(),
    restoredCheckpoint: z.number().nullable(),
  }),
  z.object({ type: z.literal('checkpoint'), runId: z.string(), stats: checkpointStats }),
  z.object({ type: z.literal('metrics'), runId: z.string(), time: z.number(), operators: z.array(operatorMetrics) }),
  z.object({ type: z.literal('preview'), runId: z.string(), target: z.string(), records: z.array(z.unknown()) }),
  z.object({
    type: z.literal('log'),
    runId: z.string(),
    level: z.enum(['info', 'warn', 'error']),
    kind: z.enum(LOG_KINDS),
    message: z.string(),
  }),
  /** A menu command from the shell; `open` with a `path` (Open Recent) opens that file without asking. */
  z.object({ type: z.literal('app.command'), command: z.enum(APP_COMMANDS), path: z.string().optional() }),
  /** What Flink reports of a Run on Flink (flink-schemas.ts): a snapshot of the run so far. */
  flinkRunEventSchema,
]);

// ---- the engine's contract types, pinned to their schemas -------------------------------------

/** true when A and B are assignable both ways; anything else fails to compile below. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type TaggedRunEvent = RunEvent extends infer E ? (E extends RunEvent ? E & { runId: string } : never) : never;
type HostEventOutput = z.output<typeof hostEventSchema>;

export const _pinned: [
  Same<z.output<typeof checkpointStats>, CheckpointStats>,
  Same<z.output<typeof retained>, RetainedCheckpoint>,
  Same<z.output<typeof operatorMetrics>, OperatorMetrics>,
  Same<z.output<typeof problem>, JobProblem>,
  Same<Exclude<HostEventOutput, { type: 'app.command' } | { type: 'flink.run' }>, TaggedRunEvent>,
] = [true, true, true, true, true];
