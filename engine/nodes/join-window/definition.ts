/** `join.window`: left and right rows with equal keys in the same event-time window (Flink's window join). */
import { z } from 'zod';
import { nonEmpty, windowSpec } from '../schema-pieces.ts';
import { NEW_WINDOW, type WindowSpec } from '../config.ts';
import { mapWindow } from '../durations.ts';
import { checkWindowSpec } from '../columns.ts';
import { joinColumnTypes, joinColumns } from '../join-columns.ts';
import { selectListColumns, uniq } from '../text.ts';
import { checkWindowsPerRecord } from '../ranges.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { joinFields } from '../shared-fields.ts';

/** Records of both inputs with equal keys in the same window (Flink's window join). */
export interface WindowJoinConfig {
  leftKey: string;
  rightKey: string;
  window: WindowSpec;
  /** `L.x`, `R.y`, and `window_start` / `window_end`. */
  select: string;
}

const configSchema = z.strictObject({
  leftKey: nonEmpty,
  rightKey: nonEmpty,
  window: windowSpec,
  select: nonEmpty.meta({ description: 'L./R. columns and window_start, window_end' }),
});
// Compile-time proof: the schema and WindowJoinConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, WindowJoinConfig>>;

export const windowJoin = defineNode<'join.window', WindowJoinConfig>({
  type: 'join.window',
  palette: {
    label: 'Window join',
    group: 'Windows',
    idPrefix: 'window-join',
    description: 'Joins left and right records with equal keys that fall into the same event-time window.',
    // two streams meeting in a box (window)
    icon: 'M3 7h6 M3 17h6 M9 5h8v14H9z M17 12h4',
    newConfig: () => ({
      leftKey: 'key',
      rightKey: 'key',
      window: { ...NEW_WINDOW.tumbling },
      select: 'window_start, window_end, L.key, L.value AS left_value, R.value AS right_value',
    }),
  },
  checkRanges: (c, r) => checkWindowsPerRecord(r, 'window', c.window),
  ports: { outputs: ['out'], minInputs: 2, maxInputs: 2, inputs: ['left', 'right'] },
  configSchema,
  // `L.user` is named `user` in the output (Flink's rule for a qualified column).
  completionColumns: (c) => uniq(selectListColumns((c.select ?? '').replace(/\b[LR]\.(?=[`"A-Za-z_])/g, ''), [])),
  columnTypes: (c, ctx) => joinColumnTypes(c, ctx, true),
  columns: (c, ctx) => {
    checkWindowSpec(ctx, c.window, 'window');
    return joinColumns(c, ctx, true);
  },
  expressions: (c) => [c.select, c.leftKey, c.rightKey],
  mapDurations: (c, f) => ({ ...c, window: mapWindow(c.window, f) }),
  eventTime: { needs: () => true },
  partitionKey: (c, port) => (port === 'right' ? c.rightKey : c.leftKey),
  keyedState: true,
  stateLayout: (c) => ({ leftKey: c.leftKey, rightKey: c.rightKey, window: c.window }),
  defaults: {},
  fields: [
    ...joinFields<WindowJoinConfig>(true),
    { kind: 'window', path: 'window', label: 'Window' },
    {
      kind: 'note',
      text: () =>
        "Pairs are emitted when the watermark passes the window's end (append-only). A session is formed per key from the records of both inputs.",
    },
  ],
});
