/**
 * The host API's wire protocol: zod schemas for every request, result and event, shared by all
 * transports (in-memory, WebSocket, Electron IPC). Browser-safe.
 *
 * Messages (plain JSON, one per WebSocket frame):
 *   client -> server  { kind: 'call', id, method, params }
 *   server -> client  { kind: 'result', id, result }
 *                     { kind: 'error', id, error: { code, message, problems? } }   (id null: unparseable call)
 *                     { kind: 'events', events: HostEvent[] }
 *
 * Invariants:
 * - Every call gets exactly one `result` or `error` with its id; ids are chosen by the client.
 * - A call whose envelope or params fail their schema is answered with `invalid_request` naming
 *   the offending field (`params.runId: expected string`); the host method is never invoked.
 * - Jobs cross as plain objects and are validated by the host (`invalid_job` with problems), so
 *   the designer sees the same problem list as `weir validate`.
 * - Events of one run arrive in the order the host emitted them (metrics are coalesced by the
 *   host's throttle, never reordered across status or checkpoint events).
 */
import { z } from 'zod';
import type { EngineHost, HostEvent, HostMethod } from './api.ts';
import { APP_COMMANDS } from './api.ts';
import type { JobDocument } from '../../graph/types.ts';
import { LOG_KINDS } from '../../contracts/run-events.ts';

/** Job documents cross as JSON objects; their structure is the host validator's business. */
const jobObject = z.record(z.string(), z.unknown()).transform((j) => j as unknown as JobDocument);
const empty = z.strictObject({});
const runId = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);
const jobStatus = z.enum([
  'created',
  'running',
  'restarting',
  'finishing',
  'finished',
  'stopped',
  'failed',
  'canceled',
]);
const errorCode = z.enum([
  'invalid_request',
  'invalid_job',
  'not_found',
  'forbidden_path',
  'job_not_running',
  'already_running',
  'io_error',
  'internal',
  'unsupported',
  'output_exists',
  'restore_refused',
]);

const problem = z.object({
  path: z.string(),
  message: z.string(),
  nodeId: z.string().optional(),
  severity: z.enum(['error', 'warning']).optional(),
});

export const hostErrorSchema = z.object({
  code: errorCode,
  message: z.string(),
  problems: z.array(problem).optional(),
});

/** Params of every method. Strict: an unknown field is a client bug worth hearing about. */
export const requestSchemas = {
  validate: z.strictObject({ job: z.unknown() }),
  run: z.strictObject({
    job: jobObject,
    path: path.optional(),
    stateBackend: z.enum(['memory', 'fs', 'rocksdb']).optional(),
    checkpointing: z
      .strictObject({
        interval: z.union([z.string(), z.number().nonnegative(), z.null()]).optional(),
        mode: z.enum(['exactly-once', 'at-least-once']).optional(),
        incremental: z.boolean().optional(),
      })
      .optional(),
    restoreFrom: path.optional(),
    parallelism: z.number().int().min(1).max(1024).optional(),
    clearOutput: z.boolean().optional(),
  }),
  stop: z.strictObject({ runId, savepoint: z.boolean().optional() }),
  triggerSavepoint: z.strictObject({ runId }),
  killTaskProcess: z.strictObject({ runId }),
  sampleEdge: z.strictObject({
    runId,
    from: z.string().min(1).max(200),
    fromPort: z.enum(['out', 'late', 'bad']).optional(),
    to: z.string().min(1).max(200).optional(),
    on: z.boolean(),
  }),
  listRuns: empty,
  listCheckpoints: z.strictObject({ job: jobObject, path: path.optional() }),
  checkpointHistory: z.strictObject({ runId }),
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
  importFlinkSql: z.strictObject({ sql: z.string().max(10_000_000), path: path.optional() }),
  sampleSource: z.strictObject({ job: jobObject, nodeId: z.string().min(1).max(200), path: path.optional() }),
  testPostgres: z.strictObject({
    url: z.string().min(1).max(2000),
    passwordEnv: z.string().min(1).max(200).optional(),
    table: z.string().min(1).max(500),
  }),
  listFiles: z.strictObject({ dir: z.string().max(4096).optional() }),
  readJob: z.strictObject({ path }),
  writeJob: z.strictObject({ path, job: jobObject }),
  listExamples: empty,
  openExample: z.strictObject({ id: z.string().min(1).max(200) }),
  hostInfo: empty,
  setDocumentState: z.strictObject({
    title: z.string().max(500),
    dirty: z.boolean(),
    path: z.union([path, z.null()]).optional(),
  }),
  showOpenDialog: empty,
  showSaveDialog: z.strictObject({ suggestedPath: path.optional() }),
  grantFolder: z.strictObject({ path: path.optional() }),
} satisfies { [M in HostMethod]: z.ZodType };

export const HOST_METHODS = Object.keys(requestSchemas) as HostMethod[];

export function isHostMethod(name: unknown): name is HostMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requestSchemas, name);
}

// ---- results --------------------------------------------------------------------------------

const runInfo = z.object({
  runId: z.string(),
  jobName: z.string(),
  status: jobStatus,
  startedAt: z.number(),
  restarts: z.number(),
  stateBackend: z.enum(['memory', 'fs', 'rocksdb']).optional(),
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
export const checkpointStatsSchema = z.object({
  id: z.number(),
  kind: z.enum(['checkpoint', 'savepoint']),
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
  kind: z.enum(['checkpoint', 'savepoint']),
  path: z.string(),
  time: z.number(),
  bytes: z.number(),
});
const voidResult = z.union([z.undefined(), z.null()]).transform(() => undefined);

export const resultSchemas = {
  validate: z.object({ ok: z.boolean(), problems: z.array(problem), summary: z.string().optional() }),
  run: runInfo,
  stop: z.object({ savepoint: z.string().optional() }),
  triggerSavepoint: z.object({ path: z.string(), id: z.number() }),
  killTaskProcess: voidResult,
  sampleEdge: z.object({ target: z.string() }),
  listRuns: z.array(runInfo),
  listCheckpoints: z.array(retained),
  checkpointHistory: z.array(checkpointStatsSchema),
  exportJob: z.object({ text: z.string(), warnings: z.array(problem) }),
  importFlinkSql: z.object({
    job: z.unknown(),
    problems: z.array(
      z.object({ line: z.number(), column: z.number(), message: z.string(), severity: z.enum(['error', 'warning']) }),
    ),
  }),
  sampleSource: z.object({
    columns: z.array(z.object({ name: z.string(), type: z.string() })),
    message: z.string().optional(),
  }),
  testPostgres: z.object({
    ok: z.boolean(),
    message: z.string().optional(),
    table: z.string().optional(),
    columns: z.array(z.object({ name: z.string(), type: z.string(), notNull: z.boolean() })).optional(),
    uniqueKeys: z.array(z.array(z.string())).optional(),
  }),
  listFiles: z.array(z.object({ path: z.string(), name: z.string(), modified: z.number() })),
  readJob: z.object({ path: z.string(), job: z.unknown() }),
  writeJob: z.object({ path: z.string() }),
  listExamples: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), path: z.string() })),
  openExample: z.object({ path: z.string(), job: z.unknown() }),
  hostInfo: z.object({
    transport: z.enum(['electron', 'websocket', 'memory']),
    nativeDialogs: z.boolean(),
    workspace: z.string(),
    initialPath: z.string().nullable(),
    version: z.string(),
  }),
  setDocumentState: voidResult,
  showOpenDialog: z.object({ path: z.string().nullable() }),
  showSaveDialog: z.object({ path: z.string().nullable() }),
  grantFolder: z.object({ folder: z.string().nullable() }),
} satisfies { [M in HostMethod]: z.ZodType };

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
  pendingRecords: z.number().optional(),
  pendingFiles: z.number().optional(),
  idle: z.boolean().optional(),
});

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
  z.object({ type: z.literal('checkpoint'), runId: z.string(), stats: checkpointStatsSchema }),
  z.object({ type: z.literal('metrics'), runId: z.string(), time: z.number(), operators: z.array(operatorMetrics) }),
  z.object({ type: z.literal('preview'), runId: z.string(), target: z.string(), records: z.array(z.unknown()) }),
  z.object({
    type: z.literal('log'),
    runId: z.string(),
    level: z.enum(['info', 'warn', 'error']),
    kind: z.enum(LOG_KINDS),
    message: z.string(),
  }),
  z.object({
    type: z.literal('app.command'),
    command: z.enum(APP_COMMANDS as [string, ...string[]]),
    path: z.string().optional(),
  }),
]);

// ---- envelopes ------------------------------------------------------------------------------

export const callMessageSchema = z.strictObject({
  kind: z.literal('call'),
  id: z.number().int().nonnegative(),
  method: z.string(),
  params: z.unknown(),
});
export type CallMessage = { kind: 'call'; id: number; method: HostMethod; params: unknown };

export const serverMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('result'), id: z.number(), result: z.unknown() }),
  z.object({ kind: z.literal('error'), id: z.number().nullable(), error: hostErrorSchema }),
  z.object({ kind: z.literal('events'), events: z.array(z.unknown()) }),
]);
export type ServerMessage =
  | { kind: 'result'; id: number; result: unknown }
  | { kind: 'error'; id: number | null; error: z.infer<typeof hostErrorSchema> }
  | { kind: 'events'; events: HostEvent[] };

/** Params and results per method, as the typed API sees them. */
export type MethodParams<M extends HostMethod> = Parameters<EngineHost[M]>[0];
export type MethodResult<M extends HostMethod> = Awaited<ReturnType<EngineHost[M]>>;

/** `params.runId: expected string, received number` - the first few issues, each with its path. */
export function describeIssues(error: z.ZodError, prefix: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const where = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export function parseParams<M extends HostMethod>(method: M, params: unknown): Parsed<MethodParams<M>> {
  const r = requestSchemas[method].safeParse(params ?? {});
  return r.success ? { ok: true, value: r.data } : { ok: false, message: describeIssues(r.error, 'params') };
}

export function parseResult<M extends HostMethod>(method: M, result: unknown): Parsed<MethodResult<M>> {
  const r = resultSchemas[method].safeParse(result);
  return r.success
    ? { ok: true, value: r.data as MethodResult<M> }
    : { ok: false, message: describeIssues(r.error, `${method} result`) };
}

export function parseEvent(event: unknown): Parsed<HostEvent> {
  const r = hostEventSchema.safeParse(event);
  return r.success
    ? { ok: true, value: r.data as HostEvent }
    : { ok: false, message: describeIssues(r.error, 'event') };
}

export function parseCall(raw: unknown): Parsed<CallMessage> {
  const r = callMessageSchema.safeParse(raw);
  if (!r.success) return { ok: false, message: describeIssues(r.error, 'message') };
  if (!isHostMethod(r.data.method))
    return { ok: false, message: `message.method: unknown method '${r.data.method.slice(0, 60)}'` };
  return { ok: true, value: r.data as CallMessage };
}

export function parseServerMessage(raw: unknown): Parsed<ServerMessage> {
  const r = serverMessageSchema.safeParse(raw);
  return r.success
    ? { ok: true, value: r.data as ServerMessage }
    : { ok: false, message: describeIssues(r.error, 'message') };
}
