/** `window`: event-time windows (tumbling, sliding, session) with SQL aggregates and a `late` port. */
import { z } from 'zod';
import { duration, nonEmpty, windowSpec } from '../schema-pieces.ts';
import { NEW_WINDOW, type DurationInput, type WindowSpec } from '../config.ts';
import { mapOptional, mapWindow } from '../durations.ts';
import { firstInput, type Columns } from '../columns.ts';
import { compileAggregates, parseKeyBy, referencedColumns } from '../../sql/index.ts';
import type { ColumnTypeMap } from '../column-types.ts';
import { aggregatesShort, clip, keyListColumns, selectListColumns, str, uniq, windowText } from '../text.ts';
import { checkWindowsPerRecord } from '../ranges.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

export interface WindowConfig {
  /** Comma-separated column list, optional (absent = one global window per window range). */
  keyBy?: string;
  window: WindowSpec;
  /** SQL aggregate list: `COUNT(*) AS n, SUM(amount) AS total`. */
  aggregates: string;
  allowedLateness?: DurationInput;
}

/** What an absent key means. */
export const WINDOW_DEFAULTS = { allowedLateness: 0 } as const;

const configSchema = z.strictObject({
  keyBy: z.string().optional(),
  window: windowSpec,
  aggregates: nonEmpty,
  allowedLateness: duration.optional(),
});
// Compile-time proof: the schema and WindowConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, WindowConfig>>;

export const window = defineNode<'window', WindowConfig>({
  type: 'window',
  palette: {
    label: 'Window',
    group: 'Windows',
    idPrefix: 'window',
    description:
      'Event-time windows (tumbling, sliding, session) with SQL aggregates; late records on a side output. Tumbling and sliding windows also take a changelog (-U/-D retract).',
    // window / clock
    icon: 'M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16z M12 8v4l3 2',
    newConfig: () => ({ window: { ...NEW_WINDOW.tumbling }, aggregates: 'COUNT(*) AS n' }),
    summary: (c) => {
      const aggs = aggregatesShort(str(c.aggregates));
      const by = c.keyBy ? ` by ${c.keyBy}` : '';
      return clip(`${windowText(c.window)} · ${aggs || 'no aggregates'}${by}`);
    },
  },
  // `late`: records that arrive after the watermark passed their window's end plus the allowed lateness.
  ports: { outputs: ['out', 'late'], minInputs: 1, maxInputs: 1 },
  readColumns: (c) => ({
    columns: [
      ...(c.keyBy ? referencedColumns('keyBy', c.keyBy) : []),
      ...referencedColumns('aggregates', c.aggregates),
    ],
    passes: false,
  }),
  configSchema,
  completionColumns: (c) =>
    uniq([
      ...keyListColumns(c.keyBy ?? ''),
      'window_start',
      'window_end',
      ...selectListColumns(c.aggregates ?? '', []),
    ]),
  positiveDurations: ({ window: w }) => [
    w.kind === 'session' ? ['window.gap', w.gap] : ['window.size', w.size],
    ...(w.kind === 'sliding' ? [['window.slide', w.slide] as [string, string | number]] : []),
  ],
  doubleSums: 'aggregates',
  checkRanges: (c, r) => {
    const w = c.window;
    if (w.kind === 'session') r.span('window.gap', w.gap);
    else r.span('window.size', w.size);
    if (w.kind === 'sliding') r.span('window.slide', w.slide);
    checkWindowsPerRecord(r, 'window', w);
    r.span('allowedLateness', c.allowedLateness);
  },
  columnTypes: (c, ctx) => {
    const types = ctx.input();
    // TIMESTAMP(3) NOT NULL as in Flink (SqlWindowTableFunction); the values are Weir's TIMESTAMPs,
    // ISO-8601 UTC instants (engine/sql/values.ts toTimestamp).
    const out: ColumnTypeMap = new Map([
      ['window_start', { type: 'TIMESTAMP' }],
      ['window_end', { type: 'TIMESTAMP' }],
    ]);
    for (const k of parseKeyBy(c.keyBy ?? '').columns) out.set(k, types.get(k) ?? { type: 'UNKNOWN' });
    for (const a of compileAggregates(c.aggregates, types)) out.set(a.alias, a.resultType);
    return out;
  },
  // window_start, window_end, the key columns, the aggregate aliases; `late` carries its input.
  columns: (c, ctx) => {
    const input = firstInput(ctx);
    let keys: Columns = [];
    if (c.keyBy !== undefined && c.keyBy.trim() !== '') {
      keys = ctx.checkExpression('keyBy', 'keyBy', c.keyBy, input) ? ctx.outputColumns('keyBy', c.keyBy, input) : null;
    }
    const aggs = ctx.checkExpression('aggregates', 'aggregates', c.aggregates, input)
      ? ctx.outputColumns('aggregates', c.aggregates, input)
      : null;
    if (keys && aggs) {
      const clash = aggs.find((a) => a === 'window_start' || a === 'window_end' || keys.includes(a));
      if (clash !== undefined) {
        ctx.error(
          ctx.path('aggregates'),
          `output column '${clash}' is already a ${keys.includes(clash) ? 'key column' : 'window column'}: choose another alias`,
        );
      }
    }
    return keys && aggs ? ['window_start', 'window_end', ...keys, ...aggs] : null;
  },
  expressions: (c) => [c.aggregates, c.keyBy ?? ''],
  mapDurations: (c, f) => mapOptional({ ...c, window: mapWindow(c.window, f) }, 'allowedLateness', f),
  eventTime: { needs: () => true },
  // Tumbling and sliding windows retract -U/-D rows from their panes; a session cannot.
  changelog: {
    accepts: (c) => c.window?.kind !== 'session',
    refusalHint: () =>
      ': session windows do not take one (retracting a row could split a merged session); use a tumbling or sliding window',
  },
  partitionKey: (c) => c.keyBy,
  keyedState: true,
  stateLayout: (c) => ({ keyBy: c.keyBy ?? null, window: c.window, aggregates: c.aggregates }),
  defaults: WINDOW_DEFAULTS,
  fields: [
    {
      kind: 'expression',
      path: 'keyBy',
      label: 'Key by',
      expression: 'keyBy',
      columns: 'input',
      placeholder: 'one global window',
      help: 'Comma-separated columns; empty = all records together',
    },
    { kind: 'window', path: 'window', label: 'Window' },
    {
      kind: 'expression',
      path: 'aggregates',
      label: 'Aggregates',
      expression: 'aggregates',
      columns: 'input',
      placeholder: 'COUNT(*) AS n, SUM(amount) AS total',
      help: 'COUNT, SUM, AVG, MIN, MAX with AS aliases',
      empty: '',
    },
    {
      kind: 'duration',
      path: 'allowedLateness',
      label: 'Allowed lateness',
      placeholder: String(WINDOW_DEFAULTS.allowedLateness),
      help: 'Later records leave through the late port',
    },
  ],
});
