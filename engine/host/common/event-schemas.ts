/**
 * The host's events: a run's events tagged with its run id, the shell's menu commands and Run on
 * Flink's snapshots (schemas.ts puts the API together). Browser-safe.
 */
import { z } from 'zod';
import { LOG_KINDS } from '../../contracts/run-events.ts';
import { flinkRunEventSchema } from './flink-schemas.ts';
import { checkpointStats, jobStatus } from './schema-fields.ts';

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

export const operatorMetrics = z.object({
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
