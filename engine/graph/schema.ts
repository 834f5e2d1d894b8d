/**
 * The `weir.job/v1` format as a zod schema: the single source of truth for the structure of a job
 * file. The JSON Schema in `schemas/weir.job.v1.schema.json` is generated from it
 * (`node --import tsx schemas/generate.ts`) and a test fails when that file is stale.
 *
 * Every object is strict (unknown fields are errors, so a typo is never silently ignored) and nodes
 * are discriminated by `type`. The bottom of this file proves at compile time that the schema and
 * `types.ts` describe the same documents. Browser-safe.
 */

import { z } from 'zod';
import { JOB_FORMAT, type JobDocument, type JobNode, type JobEdge, type JobSettingsInput } from './types.ts';
import { checkDuration, checkSize } from './units.ts';
import { checkSignedDuration } from './signed-duration.ts';

// JSON Schema patterns have no flags, so case-insensitivity is spelled out.
const NUMBER_RE = String.raw`\s*(\d+(\.\d+)?|\.\d+)\s*`;
export const DURATION_PATTERN = new RegExp(`^${NUMBER_RE}([mM][sS]|[sSmMhHdD])?\\s*$`);
export const SIGNED_DURATION_PATTERN = new RegExp(`^\\s*-?${NUMBER_RE}([mM][sS]|[sSmMhHdD])?\\s*$`);
export const SIZE_PATTERN = new RegExp(`^${NUMBER_RE}([bB]|[kKmMgG][bB])?\\s*$`);

function unitError(check: (v: unknown) => { ok: boolean; message?: string }) {
  return (iss: { input?: unknown }) => {
    const r = check(iss.input);
    return r.ok ? undefined : r.message;
  };
}
const durationError = { error: unitError(checkDuration) };
const sizeError = { error: unitError(checkSize) };

const duration = z
  .union([z.number().nonnegative(durationError), z.string().regex(DURATION_PATTERN, durationError)], durationError)
  .meta({ id: 'Duration', description: "Milliseconds, or a string with a unit: '500ms', '5s', '5m', '2h', '1d'" });

const signedDurationError = { error: unitError(checkSignedDuration) };
const signedDuration = z
  .union(
    [z.number(signedDurationError), z.string().regex(SIGNED_DURATION_PATTERN, signedDurationError)],
    signedDurationError,
  )
  .meta({ id: 'SignedDuration', description: "A duration that may be negative: '-5s', '2s', -500" });

const size = z
  .union([z.number().int(sizeError).nonnegative(sizeError), z.string().regex(SIZE_PATTERN, sizeError)], sizeError)
  .meta({ id: 'Size', description: "Bytes, or a string with a unit: '512kb', '5mb', '1gb'" });

const posInt = z.number().int().min(1);
const nonNegInt = z.number().int().min(0);
const nonEmpty = z.string().min(1, { error: 'must not be empty' });

const stateBackend = z.enum(['memory', 'fs', 'rocksdb']);
const checkpointMode = z.enum(['exactly-once', 'at-least-once']);
const recordFormat = z.enum(['jsonl', 'csv']);

const position = z.strictObject({ x: z.number(), y: z.number() });

const eventTime = z.strictObject({
  field: nonEmpty.meta({ description: 'Column holding epoch milliseconds or an ISO-8601 string' }),
  maxOutOfOrderness: duration.optional(),
  idleTimeout: duration.optional(),
});

const fileSourceConfig = z.strictObject({
  path: nonEmpty,
  format: recordFormat,
  follow: z.boolean().optional(),
  onBadRecord: z.enum(['skip', 'fail', 'dead-letter']).optional(),
  eventTime: eventTime.optional(),
  columns: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'Declared columns: name -> Flink SQL type' }),
});

const generatorSourceConfig = z.strictObject({
  seed: z.number().int().optional(),
  count: nonNegInt.optional().meta({ description: 'Number of records; absent = unbounded' }),
  rate: z.number().positive().optional().meta({ description: 'Records per second; absent = as fast as possible' }),
  keys: posInt.optional(),
  outOfOrderness: duration.optional(),
  startTime: z.number().optional(),
  step: z.number().nonnegative().optional(),
  eventTime: eventTime.optional(),
});

const nexmarkSourceConfig = z.strictObject({
  events: posInt.optional().meta({ description: 'Number of events (persons, auctions and bids); absent = unbounded' }),
  seed: nonNegInt.optional(),
  rate: z
    .number()
    .positive()
    .optional()
    .meta({ description: 'Events per second: throttles emission and spaces event time; absent = as fast as possible' }),
  baseTime: z.number().int().optional().meta({ description: 'Event time of event 0 (epoch ms)' }),
  maxOutOfOrderness: duration.optional(),
});

const postgresSourceConfig = z.strictObject({
  url: nonEmpty.meta({ description: 'postgresql://user@host:5432/db (no password: see passwordEnv)' }),
  passwordEnv: nonEmpty.optional().meta({ description: 'Environment variable holding the password' }),
  table: nonEmpty.meta({ description: "'schema.table' or 'table' (schema public)" }),
  mode: z.enum(['snapshot', 'cdc']),
  eventTime: eventTime.optional(),
  columns: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'Declared columns: name -> Flink SQL type' }),
  primaryKey: nonEmpty.optional().meta({ description: "Primary-key columns, comma-separated: 'id' or 'region, id'" }),
  slotName: z
    .string()
    .regex(/^[a-z0-9_]{1,63}$/, { error: 'a slot name is 1-63 characters of a-z, 0-9 and _' })
    .optional(),
});

const windowSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tumbling'), size: duration }),
  z.strictObject({ kind: z.literal('sliding'), size: duration, slide: duration }),
  z.strictObject({ kind: z.literal('session'), gap: duration }),
]);

const windowConfig = z.strictObject({
  keyBy: z.string().optional(),
  window: windowSpec,
  aggregates: nonEmpty,
  allowedLateness: duration.optional(),
});

const intervalJoinConfig = z.strictObject({
  leftKey: nonEmpty.meta({ description: 'Key columns of the left input' }),
  rightKey: nonEmpty.meta({ description: 'Key columns of the right input, in the same order' }),
  lower: signedDuration.meta({ description: 'L.ts >= R.ts + lower' }),
  upper: signedDuration.meta({ description: 'L.ts <= R.ts + upper' }),
  select: nonEmpty.meta({ description: "Output columns with L./R. prefixes: 'L.user, L.amount, R.country'" }),
});

const windowJoinConfig = z.strictObject({
  leftKey: nonEmpty,
  rightKey: nonEmpty,
  window: windowSpec,
  select: nonEmpty.meta({ description: 'L./R. columns and window_start, window_end' }),
});

const joinConfig = z.strictObject({
  kind: z.enum(['inner', 'left', 'right', 'full']),
  leftKey: nonEmpty,
  rightKey: nonEmpty,
  select: nonEmpty,
  stateTtl: duration.optional().meta({ description: 'Forget rows older than this behind the watermark (event time)' }),
});

const aggregateConfig = z.strictObject({
  keyBy: nonEmpty,
  aggregates: nonEmpty,
  stateTtl: duration.optional().meta({ description: 'Forget a key not updated for this long (event time)' }),
});

const topnConfig = z.strictObject({
  partitionBy: nonEmpty,
  orderBy: nonEmpty.meta({ description: "'price DESC, ts ASC'" }),
  limit: posInt,
  window: windowSpec.optional().meta({ description: 'Top N per window (append-only) instead of a running changelog' }),
});

const postgresSinkConfig = z.strictObject({
  url: nonEmpty.meta({ description: 'postgresql://user@host:5432/db (no password: use passwordEnv)' }),
  passwordEnv: nonEmpty.optional().meta({ description: 'Environment variable holding the password' }),
  table: nonEmpty.meta({ description: "'schema.table' or 'table' (schema public)" }),
  mode: z.enum(['append', 'upsert']),
  key: nonEmpty.optional().meta({ description: "Upsert: 'col, col' of a primary key or unique constraint" }),
});

function nodeSchema<T extends string, C extends z.ZodType>(type: T, config: C) {
  return z.strictObject({
    id: z.string().regex(/^[^\s/\\]+$/, { error: 'node id must be non-empty without spaces or slashes' }),
    type: z.literal(type),
    name: z.string().optional(),
    position: position.optional(),
    parallelism: posInt.optional(),
    config,
  });
}

export const jobNodeSchema = z.discriminatedUnion('type', [
  nodeSchema('source.file', fileSourceConfig),
  nodeSchema('source.generator', generatorSourceConfig),
  nodeSchema('source.nexmark', nexmarkSourceConfig),
  nodeSchema('source.postgres', postgresSourceConfig),
  nodeSchema('filter', z.strictObject({ where: nonEmpty })),
  nodeSchema('map', z.strictObject({ select: nonEmpty })),
  nodeSchema('union', z.strictObject({})),
  nodeSchema('window', windowConfig),
  nodeSchema('join.interval', intervalJoinConfig),
  nodeSchema('join.window', windowJoinConfig),
  nodeSchema('join', joinConfig),
  nodeSchema('aggregate', aggregateConfig),
  nodeSchema('topn', topnConfig),
  nodeSchema('sink.file', z.strictObject({ path: nonEmpty, format: z.enum(['jsonl', 'csv', 'changelog-json']) })),
  nodeSchema('sink.postgres', postgresSinkConfig),
  nodeSchema('sink.preview', z.strictObject({ limit: posInt.optional() })),
]);

export const jobEdgeSchema = z.strictObject({
  from: nonEmpty,
  to: nonEmpty,
  fromPort: z.enum(['out', 'late', 'bad', 'person', 'auction', 'bid']).optional(),
  toPort: z
    .enum(['left', 'right'])
    .optional()
    .meta({ description: 'Input port of a two-input node (join, join.interval, join.window)' }),
});

export const jobSettingsSchema = z.strictObject({
  stateBackend: stateBackend.optional(),
  checkpointing: z
    .strictObject({
      interval: duration.optional().meta({ description: 'Absent = checkpointing off' }),
      mode: checkpointMode.optional(),
      timeout: duration.optional(),
      minPause: duration.optional(),
      retained: posInt.optional(),
      incremental: z.boolean().optional(),
      dir: nonEmpty.optional(),
      tolerableFailures: nonNegInt.optional(),
    })
    .optional(),
  memoryStateLimit: size.optional(),
  parallelism: posInt.optional(),
  // Flink's upper bound for the number of key groups.
  maxParallelism: posInt.max(32768).optional(),
  restart: z.strictObject({ attempts: nonNegInt.optional(), delay: duration.optional() }).optional(),
});

// Designer annotations: saved with the job so a team sees the same canvas, never read by the engine.
export const jobGroupSchema = z
  .strictObject({
    id: nonEmpty,
    label: z.string(),
    nodes: z.array(z.string()),
    color: z.string().optional(),
  })
  .meta({ id: 'JobGroup', description: 'Designer only, ignored by the engine: a labelled frame around nodes' });

export const jobNoteSchema = z
  .strictObject({
    id: nonEmpty,
    text: z.string(),
    position,
    width: z.number().positive().optional(),
    height: z.number().positive().optional(),
  })
  .meta({ id: 'JobNote', description: 'Designer only, ignored by the engine: a sticky note on the canvas' });

export const jobDocumentSchema = z
  .strictObject({
    $schema: z.string().optional(),
    format: z.literal(JOB_FORMAT),
    name: nonEmpty,
    settings: jobSettingsSchema.optional(),
    nodes: z.array(jobNodeSchema),
    edges: z.array(jobEdgeSchema),
    groups: z.array(jobGroupSchema).optional(),
    notes: z.array(jobNoteSchema).optional(),
  })
  .meta({
    title: 'Weir job (weir.job/v1)',
    description: 'A stream pipeline for Weir: nodes (sources, operators, sinks), edges and settings.',
  });

/** The JSON Schema document written to schemas/weir.job.v1.schema.json. */
export function jobJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(jobDocumentSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  return { ...schema, $id: 'https://weir.dev/schemas/weir.job.v1.schema.json' };
}

// ---- compile-time proof that the schema and types.ts agree ----
// Mutual assignability catches wrong types and missing required fields; optional fields are
// assignable either way, so the key sets of every object are compared exactly as well.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type Keys<T> = T extends unknown ? [keyof T] : never;
type NodeKeys<N> = N extends { type: infer T; config: infer C } ? [T, keyof N, keyof C] : never;
type Doc = z.infer<typeof jobDocumentSchema>;
type Settings = Required<z.infer<typeof jobSettingsSchema>>;
type SettingsT = Required<JobSettingsInput>;
type Cfg<N, T> = N extends { type: T; config: infer C } ? Required<C> : never;
type CfgT<T extends JobNode['type']> = Required<Extract<JobNode, { type: T }>['config']>;
type DocNode = z.infer<typeof jobNodeSchema>;
export type _SchemaChecks = [
  Assert<Same<Doc, JobDocument>>,
  Assert<Same<DocNode, JobNode>>,
  Assert<Same<z.infer<typeof jobEdgeSchema>, JobEdge>>,
  Assert<Same<z.infer<typeof jobSettingsSchema>, JobSettingsInput>>,
  Assert<Eq<keyof Doc, keyof JobDocument>>,
  Assert<Eq<NodeKeys<DocNode>, NodeKeys<JobNode>>>,
  Assert<Eq<keyof z.infer<typeof jobEdgeSchema>, keyof JobEdge>>,
  Assert<Eq<keyof Settings, keyof SettingsT>>,
  Assert<Eq<keyof Required<Settings['checkpointing']>, keyof Required<SettingsT['checkpointing']>>>,
  Assert<Eq<keyof Required<Settings['restart']>, keyof Required<SettingsT['restart']>>>,
  Assert<
    Eq<keyof NonNullable<Cfg<DocNode, 'source.file'>['eventTime']>, keyof NonNullable<CfgT<'source.file'>['eventTime']>>
  >,
  Assert<Eq<Keys<Cfg<DocNode, 'window'>['window']>, Keys<CfgT<'window'>['window']>>>,
];
