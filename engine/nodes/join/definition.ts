/** `join`: a regular inner or outer join on equal keys; outer joins emit a changelog. */
import { z } from 'zod';
import { duration, nonEmpty } from '../schema-pieces.ts';
import type { DurationInput } from '../config.ts';
import { mapOptional } from '../durations.ts';
import { joinColumnTypes, joinColumns } from '../join-columns.ts';
import { selectListColumns, uniq } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { joinFields } from '../shared-fields.ts';

export type JoinKind = 'inner' | 'left' | 'right' | 'full';

/** A regular join; outer joins emit updates (a row padded with NULLs is retracted on a match). */
export interface JoinConfig {
  kind: JoinKind;
  leftKey: string;
  rightKey: string;
  select: string;
  /** Rows older than this (event time, behind the watermark) are forgotten. */
  stateTtl?: DurationInput;
}

const configSchema = z.strictObject({
  kind: z.enum(['inner', 'left', 'right', 'full']),
  leftKey: nonEmpty,
  rightKey: nonEmpty,
  select: nonEmpty,
  stateTtl: duration.optional().meta({ description: 'Forget rows older than this behind the watermark (event time)' }),
});
// Compile-time proof: the schema and JoinConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, JoinConfig>>;

export const join = defineNode<'join', JoinConfig>({
  type: 'join',
  palette: {
    label: 'Join',
    group: 'Transforms',
    idPrefix: 'join',
    description: 'A regular inner or outer join on equal keys; outer joins emit a changelog.',
    // two streams merging into one
    icon: 'M3 6h5l5 6h8 M3 18h5l5-6',
    newConfig: () => ({
      kind: 'inner',
      leftKey: 'key',
      rightKey: 'key',
      select: 'L.key, L.value AS left_value, R.value AS right_value',
      stateTtl: '1h',
    }),
  },
  ports: { outputs: ['out'], minInputs: 2, maxInputs: 2, inputs: ['left', 'right'] },
  configSchema,
  // `L.user` is named `user` in the output (Flink's rule for a qualified column).
  completionColumns: (c) => uniq(selectListColumns((c.select ?? '').replace(/\b[LR]\.(?=[`"A-Za-z_])/g, ''), [])),
  columns: (c, ctx) => joinColumns(c, ctx, false),
  columnTypes: (c, ctx) => joinColumnTypes(c, ctx, false),
  expressions: (c) => [c.select, c.leftKey, c.rightKey],
  mapDurations: (c, f) => mapOptional(c, 'stateTtl', f),
  // Outer joins retract NULL-padded rows when their first match arrives.
  changelog: { produces: (c) => c.kind !== 'inner' },
  partitionKey: (c, port) => (port === 'right' ? c.rightKey : c.leftKey),
  keyedState: true,
  stateLayout: (c) => ({ kind: c.kind, leftKey: c.leftKey, rightKey: c.rightKey }),
  defaults: {},
  fields: [
    {
      kind: 'select',
      path: 'kind',
      label: 'Kind',
      options: [
        { value: 'inner', label: 'Inner' },
        { value: 'left', label: 'Left outer' },
        { value: 'right', label: 'Right outer' },
        { value: 'full', label: 'Full outer' },
      ],
      empty: 'inner',
    },
    ...joinFields<JoinConfig>(false),
    {
      kind: 'duration',
      path: 'stateTtl',
      label: 'State TTL',
      placeholder: 'keep forever',
      help: 'Rows this far behind the watermark are forgotten',
    },
    {
      kind: 'note',
      when: (c) => c.kind !== 'inner',
      text: () => 'An outer join emits a changelog: a row padded with NULLs is retracted when its first match arrives.',
    },
  ],
});
