/**
 * The params of every host method (schemas.ts puts the API together). Requests are strict: an
 * unknown field is a client bug worth hearing about. Browser-safe.
 */
import { z } from 'zod';
import { NEXMARK_PORTS } from '../../graph/nexmark.ts';
import { flinkTarget, flinkVersion as flinkLine, hostSettingsSchema } from './flink-schemas.ts';
import { previewRunParams, traceTarget } from './preview-schemas.ts';
import { empty, jobObject, path, runId, stateBackend } from './schema-fields.ts';

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
