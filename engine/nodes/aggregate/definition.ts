/** `aggregate`: group aggregation without windows; a changelog of updated results per key. */
import { z } from 'zod';
import { duration, nonEmpty } from '../schema-pieces.ts';
import type { DurationInput } from '../config.ts';
import { mapOptional } from '../durations.ts';
import { compileAggregates, parseKeyBy } from '../../sql/index.ts';
import { attempt, checkKnown } from '../columns.ts';
import { keyListColumns, selectListColumns, uniq } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

/** Group aggregation without windows: emits -U/+U updates as its input grows. */
export interface AggregateConfig {
  keyBy: string;
  /** SQL aggregate list, also COUNT(DISTINCT x) and `... FILTER (WHERE ...)`. */
  aggregates: string;
  /** Keys not updated for this long (event time) are forgotten. */
  stateTtl?: DurationInput;
}

const configSchema = z.strictObject({
  keyBy: nonEmpty,
  aggregates: nonEmpty,
  stateTtl: duration.optional().meta({ description: 'Forget a key not updated for this long (event time)' }),
});
// Compile-time proof: the schema and AggregateConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, AggregateConfig>>;

export const aggregate = defineNode<'aggregate', AggregateConfig>({
  type: 'aggregate',
  palette: {
    label: 'Aggregate',
    group: 'Transforms',
    idPrefix: 'aggregate',
    description:
      'Group aggregation over everything seen so far, per key: a changelog of updated results. Takes a changelog too (-U/-D retract).',
    // sigma
    icon: 'M18 5H6l6 7-6 7h12',
    newConfig: () => ({ keyBy: 'key', aggregates: 'COUNT(*) AS n' }),
  },
  ports: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  configSchema,
  completionColumns: (c) => uniq([...keyListColumns(c.keyBy ?? ''), ...selectListColumns(c.aggregates ?? '', [])]),
  columns: (c, ctx) => {
    const input = ctx.inputs[0]?.columns ?? null;
    const keys = attempt(ctx, ctx.path('keyBy'), () => parseKeyBy(c.keyBy));
    if (keys) checkKnown(ctx, ctx.path('keyBy'), keys.columns, input);
    // Syntax, argument types (SUM of a STRING) and known columns, as a window's aggregates.
    const aggs = ctx.checkExpression('aggregates', 'aggregates', c.aggregates, input)
      ? compileAggregates(c.aggregates)
      : null;
    if (!keys || !aggs) return null;
    const clash = aggs.find((a) => keys.columns.includes(a.alias));
    if (clash)
      ctx.error(ctx.path('aggregates'), `output column '${clash.alias}' is already a key column: choose another alias`);
    // Its key columns, then the aggregate aliases.
    return [...keys.columns, ...aggs.map((a) => a.alias)];
  },
  expressions: (c) => [c.aggregates, c.keyBy],
  mapDurations: (c, f) => mapOptional(c, 'stateTtl', f),
  changelog: { produces: () => true, accepts: () => true },
  partitionKey: (c) => c.keyBy,
  keyedState: true,
  defaults: {},
  fields: [
    {
      kind: 'expression',
      path: 'keyBy',
      label: 'Key by',
      expression: 'keyBy',
      columns: 'input',
      placeholder: 'category',
      help: 'Comma-separated columns',
      empty: '',
    },
    {
      kind: 'expression',
      path: 'aggregates',
      label: 'Aggregates',
      expression: 'aggregates',
      columns: 'input',
      placeholder: 'COUNT(*) AS n, AVG(price) AS avg_price',
      help: 'Also COUNT(DISTINCT x) and … FILTER (WHERE …)',
      empty: '',
    },
    {
      kind: 'duration',
      path: 'stateTtl',
      label: 'State TTL',
      placeholder: 'keep forever',
      help: 'Keys not updated this long (event time) are forgotten',
    },
    { kind: 'note', text: () => "Emits a changelog: +I for a key's first result, then -U / +U as it changes." },
  ],
});
