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
import type { NodeDefinition } from '../nodes/definition.ts';
import { NODE_DEFINITIONS } from './node-types.ts';
import { duration, nonEmpty, nonNegInt, posInt, size } from '../nodes/schema-pieces.ts';

const stateBackend = z.enum(['memory', 'fs', 'rocksdb']);
const checkpointMode = z.enum(['exactly-once', 'at-least-once']);

const position = z.strictObject({ x: z.number(), y: z.number() });

/** A node of one type: the envelope every node has, around its definition's config schema. */
function nodeSchema<T extends string, C>(d: NodeDefinition<T, C>) {
  return z.strictObject({
    id: z.string().regex(/^[^\s/\\]+$/, { error: 'node id must be non-empty without spaces or slashes' }),
    type: z.literal(d.type),
    name: z.string().optional(),
    position: position.optional(),
    parallelism: posInt.optional(),
    config: d.configSchema,
  });
}

type NodeSchema = ReturnType<typeof nodeSchema>;
/**
 * Nodes, discriminated by `type`, one option per registered definition. Typed as `JobNode`: that
 * each config schema parses exactly its interface is proven in its definition (SchemaMatches),
 * and the envelope's keys below.
 */
export const jobNodeSchema = z.discriminatedUnion(
  'type',
  NODE_DEFINITIONS.map((d) => nodeSchema(d as NodeDefinition<string, unknown>)) as [NodeSchema, ...NodeSchema[]],
) as unknown as z.ZodType<JobNode>;

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
// assignable either way, so the key sets of every object are compared exactly as well. Each
// node config is proven against its interface in its definition (engine/nodes/<type>/).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type Doc = z.infer<typeof jobDocumentSchema>;
type Settings = Required<z.infer<typeof jobSettingsSchema>>;
type SettingsT = Required<JobSettingsInput>;
type Envelope = keyof z.infer<NodeSchema>;
export type _SchemaChecks = [
  Assert<Same<Doc, JobDocument>>,
  Assert<Same<z.infer<typeof jobEdgeSchema>, JobEdge>>,
  Assert<Same<z.infer<typeof jobSettingsSchema>, JobSettingsInput>>,
  Assert<Eq<keyof Doc, keyof JobDocument>>,
  Assert<Eq<Envelope, keyof JobNode>>,
  Assert<Eq<keyof z.infer<typeof jobEdgeSchema>, keyof JobEdge>>,
  Assert<Eq<keyof Settings, keyof SettingsT>>,
  Assert<Eq<keyof Required<Settings['checkpointing']>, keyof Required<SettingsT['checkpointing']>>>,
  Assert<Eq<keyof Required<Settings['restart']>, keyof Required<SettingsT['restart']>>>,
];
