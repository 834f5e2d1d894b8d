/** `topn`: the first N rows per partition in a sort order; limit 1 by time is deduplication. */
import { z } from 'zod';
import { nonEmpty, posInt, windowSpec } from '../schema-pieces.ts';
import type { WindowSpec } from '../config.ts';
import { mapWindow } from '../durations.ts';
import { parseKeyBy } from '../../sql/index.ts';
import { attempt, checkKnown, checkWindowSpec } from '../columns.ts';
import { uniq } from '../text.ts';
import type { ColumnTypeMap } from '../column-types.ts';
import { checkWindowsPerRecord } from '../ranges.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

/**
 * Top N rows per partition; `limit: 1` ordered by `ts` is deduplication. Emits a changelog of rank
 * changes, or with `window` the final top N of each window (append-only).
 */
export interface TopNConfig {
  partitionBy: string;
  /** `price DESC, ts ASC`: columns with optional ASC (default) / DESC. */
  orderBy: string;
  limit: number;
  /**
   * Top N per partition and window (Flink's window Top-N): rows are ranked when the watermark
   * passes the window's end and emitted once, append-only, with window_start and window_end.
   */
  window?: WindowSpec;
}

/** The column topn adds: the row's rank within its partition, 1..limit. */
export const TOPN_RANK_COLUMN = 'rownum';

/** Limit 1 ordered by one column: deduplication (keeps the first or the last row per partition). */
export function isDeduplication(c: Pick<TopNConfig, 'limit' | 'orderBy'>): boolean {
  return c.limit === 1 && /^\s*\S+\s+(ASC|DESC)?\s*$/i.test(c.orderBy ?? '');
}

const configSchema = z.strictObject({
  partitionBy: nonEmpty,
  orderBy: nonEmpty.meta({ description: "'price DESC, ts ASC'" }),
  limit: posInt,
  window: windowSpec.optional().meta({ description: 'Top N per window (append-only) instead of a running changelog' }),
});
// Compile-time proof: the schema and TopNConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, TopNConfig>>;

export const topn = defineNode<'topn', TopNConfig>({
  type: 'topn',
  palette: {
    label: 'Top N',
    group: 'Transforms',
    idPrefix: 'topn',
    description: 'The first N rows per partition in a sort order (limit 1 by time: deduplication); a changelog.',
    // podium
    icon: 'M3 20h18 M9 20V8h6v12 M3 20v-7h6 M15 20v-4h6v4',
    newConfig: () => ({ partitionBy: 'key', orderBy: 'value DESC', limit: 3 }),
  },
  checkRanges: (c, r) => checkWindowsPerRecord(r, 'window', c.window),
  ports: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  configSchema,
  completionColumns: (c, ctx) =>
    uniq([...(c.window ? ['window_start', 'window_end'] : []), ...ctx.input(), TOPN_RANK_COLUMN]),
  // Its input's types, the rank (BIGINT, as ROW_NUMBER's) and, per window, the window's bounds.
  columnTypes: (c, ctx) => {
    const out: ColumnTypeMap = new Map();
    if (c.window) for (const w of ['window_start', 'window_end']) out.set(w, { type: 'TIMESTAMP' });
    for (const [n, t] of ctx.input()) out.set(n, t);
    out.set(TOPN_RANK_COLUMN, { type: 'BIGINT' });
    return out;
  },
  columns: (c, ctx) => {
    const input = ctx.inputs[0]?.columns ?? null;
    const keys = attempt(ctx, ctx.path('partitionBy'), () => parseKeyBy(c.partitionBy));
    if (keys) checkKnown(ctx, ctx.path('partitionBy'), keys.columns, input);
    // Its syntax, its types (a column of ARRAY, MAP or ROW type cannot be ordered), its columns.
    ctx.checkExpression('orderBy', 'orderBy', c.orderBy, input);
    if (input && input.includes(TOPN_RANK_COLUMN)) {
      ctx.error(
        ctx.path(),
        `the input of topn '${ctx.nodeId}' already has a column '${TOPN_RANK_COLUMN}' (topn adds it): rename it upstream`,
      );
    }
    if (c.window) {
      checkWindowSpec(ctx, c.window, 'window');
      const clash = input?.find((x) => x === 'window_start' || x === 'window_end');
      if (clash)
        ctx.error(
          ctx.path(),
          `the input of topn '${ctx.nodeId}' already has a column '${clash}' (a windowed topn adds it): rename it upstream`,
        );
      return input ? ['window_start', 'window_end', ...input, TOPN_RANK_COLUMN] : null;
    }
    return input ? [...input, TOPN_RANK_COLUMN] : null;
  },
  expressions: (c) => [c.partitionBy, c.orderBy],
  mapDurations: (c, f) => (c.window ? { ...c, window: mapWindow(c.window, f) } : c),
  eventTime: { needs: (c) => !!c.window },
  // A running top N emits rank changes; per window, each window's final rows once.
  changelog: { produces: (c) => !c.window },
  partitionKey: (c) => c.partitionBy,
  keyedState: true,
  stateLayout: (c) => ({ partitionBy: c.partitionBy, orderBy: c.orderBy, limit: c.limit, window: c.window ?? null }),
  defaults: {},
  fields: [
    {
      kind: 'expression',
      path: 'partitionBy',
      label: 'Partition by',
      expression: 'keyBy',
      columns: 'input',
      placeholder: 'auction',
      empty: '',
    },
    {
      kind: 'expression',
      path: 'orderBy',
      label: 'Order by',
      expression: 'orderBy',
      columns: 'input',
      placeholder: 'price DESC, ts ASC',
      help: 'Columns with ASC (default) or DESC',
      empty: '',
    },
    { kind: 'number', path: 'limit', label: 'Limit', integer: true, min: 1, empty: 1 },
    {
      kind: 'window',
      path: 'window',
      label: 'Per window',
      optional: 'no: a running top N (changelog)',
      sizeLabel: 'Window size',
    },
    {
      kind: 'note',
      text: (c) =>
        c.window
          ? "Emits each window's top rows once, when the watermark passes its end (append-only)."
          : isDeduplication(c)
            ? 'Limit 1 ordered by one column: deduplication (ts ASC keeps the first row, DESC the last).'
            : 'Emits a changelog of rank changes; each row carries its rank as rownum.',
    },
  ],
});
