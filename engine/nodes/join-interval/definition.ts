/** `join.interval`: left and right rows with equal keys whose event times lie within an interval. */
import { z } from 'zod';
import { nonEmpty, signedDuration } from '../schema-pieces.ts';
import type { DurationInput } from '../config.ts';
import { joinColumnTypes, joinColumns } from '../join-columns.ts';
import { checkSignedDuration } from '../signed-duration.ts';
import { selectListColumns, uniq } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { joinFields } from '../shared-fields.ts';

/**
 * Two-input nodes (`join.interval`) read edges with `toPort: "left"` or `"right"`; their `select`
 * names columns `L.x` / `R.x`. Durations `lower`/`upper` may be negative (`"-5s"`).
 */
export interface IntervalJoinConfig {
  leftKey: string;
  rightKey: string;
  lower: DurationInput;
  upper: DurationInput;
  select: string;
}

const configSchema = z.strictObject({
  leftKey: nonEmpty.meta({ description: 'Key columns of the left input' }),
  rightKey: nonEmpty.meta({ description: 'Key columns of the right input, in the same order' }),
  lower: signedDuration.meta({ description: 'L.ts >= R.ts + lower' }),
  upper: signedDuration.meta({ description: 'L.ts <= R.ts + upper' }),
  select: nonEmpty.meta({ description: "Output columns with L./R. prefixes: 'L.user, L.amount, R.country'" }),
});
// Compile-time proof: the schema and IntervalJoinConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, IntervalJoinConfig>>;

export const intervalJoin = defineNode<'join.interval', IntervalJoinConfig>({
  type: 'join.interval',
  palette: {
    label: 'Interval join',
    group: 'Transforms',
    idPrefix: 'join',
    description: 'Joins a left and a right stream on equal keys when their event times are within an interval.',
    // two streams meeting in a time band
    icon: 'M3 7h7l4 5-4 5H3 M21 7h-4 M21 17h-4 M14 12h7',
    newConfig: () => ({
      leftKey: 'key',
      rightKey: 'key',
      lower: '-5s',
      upper: '5s',
      select: 'L.key, L.ts AS left_ts, R.ts AS right_ts',
    }),
  },
  ports: { outputs: ['out'], minInputs: 2, maxInputs: 2, inputs: ['left', 'right'] },
  configSchema,
  // `L.user` is named `user` in the output (Flink's rule for a qualified column).
  completionColumns: (c) => uniq(selectListColumns((c.select ?? '').replace(/\b[LR]\.(?=[`"A-Za-z_])/g, ''), [])),
  columnTypes: (c, ctx) => joinColumnTypes(c, ctx, false),
  columns: (c, ctx) => {
    const lo = checkSignedDuration(c.lower),
      hi = checkSignedDuration(c.upper);
    if (lo.ok && hi.ok && lo.value > hi.value) {
      ctx.error(
        ctx.path('lower'),
        `lower (${lo.value} ms) is greater than upper (${hi.value} ms): no row could ever join`,
      );
    }
    return joinColumns(c, ctx, false);
  },
  expressions: (c) => [c.select, c.leftKey, c.rightKey],
  mapDurations: (c, _f, signed) => ({ ...c, lower: signed(c.lower), upper: signed(c.upper) }),
  eventTime: { needs: () => true },
  partitionKey: (c, port) => (port === 'right' ? c.rightKey : c.leftKey),
  keyedState: true,
  stateLayout: (c) => ({ leftKey: c.leftKey, rightKey: c.rightKey, lower: c.lower, upper: c.upper }),
  defaults: {},
  fields: [
    ...joinFields<IntervalJoinConfig>(false),
    // Text, not the duration widget: the bounds may be negative (`-5s`).
    {
      kind: 'text',
      path: 'lower',
      label: 'Lower bound',
      help: 'L.ts >= R.ts + lower (may be negative: -5s)',
      empty: '',
    },
    { kind: 'text', path: 'upper', label: 'Upper bound', help: 'L.ts <= R.ts + upper', empty: '' },
    {
      kind: 'note',
      text: () => 'Append-only. Each row is kept until the watermark passes the last time it could still match.',
    },
  ],
});
