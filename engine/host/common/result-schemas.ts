/**
 * The result of every host method (schemas.ts puts the API together). Results are plain objects:
 * unknown fields are dropped on the page side. Browser-safe.
 */
import { z } from 'zod';
import { flinkRunSnapshot, hostSettingsSchema } from './flink-schemas.ts';
import { previewResultSchema, traceResultSchema } from './preview-schemas.ts';
import type { requestSchemas } from './request-schemas.ts';
import { checkpointKind, checkpointStats, jobObject, jobStatus, problem, stateBackend } from './schema-fields.ts';

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
export const retained = z.object({
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
