/** `map`: computes new columns with a SQL select list. */
import { z } from 'zod';
import { nonEmpty } from '../schema-pieces.ts';
import { firstInput } from '../columns.ts';
import { compileProjectionDetailed, referencedColumns, type ColumnType } from '../../sql/index.ts';
import type { ColumnTypeMap } from '../column-types.ts';
import { clip, selectListColumns, str, uniq } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

export interface MapConfig {
  select: string;
}

const configSchema = z.strictObject({ select: nonEmpty });
// Compile-time proof: the schema and MapConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, MapConfig>>;

export const map = defineNode<'map', MapConfig>({
  type: 'map',
  palette: {
    label: 'Map',
    group: 'Transforms',
    idPrefix: 'map',
    description: 'Computes new columns with a SQL select list.',
    // function arrow
    icon: 'M4 12h12 M12 7l5 5-5 5 M4 7v10',
    newConfig: () => ({ select: '*' }),
    summary: (c) => clip(str(c.select) ? `select ${str(c.select)}` : 'select (empty)'),
  },
  ports: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  // `*` passes every column on: it needs whole rows.
  readColumns: (c, ctx) =>
    ctx.outputNames(c.select).includes('*') ? null : { columns: referencedColumns('select', c.select), passes: false },
  configSchema,
  completionColumns: (c, ctx) => uniq(selectListColumns(c.select ?? '', ctx.input())),
  columnTypes: (c, ctx) => {
    const types = ctx.input();
    const p = compileProjectionDetailed(c.select, types);
    const out: ColumnTypeMap = p.columns === null ? new Map(types) : new Map();
    for (const col of p.columns ?? p.extra) {
      // A column selected as it is keeps its input type exactly (an INT stays an INT).
      const same = col.sourceColumn !== undefined ? types.get(col.sourceColumn) : undefined;
      if (same) {
        out.set(col.name, same);
        continue;
      }
      const t: ColumnType = { type: col.type ?? 'UNKNOWN' };
      if (col.precision !== undefined) {
        t.precision = col.precision;
        t.scale = col.scale;
      }
      out.set(col.name, t);
    }
    return out;
  },
  // Its select list.
  columns: (c, ctx) => {
    const input = firstInput(ctx);
    return ctx.checkExpression('select', 'select', c.select, input)
      ? ctx.outputColumns('select', c.select, input)
      : null;
  },
  expressions: (c) => [c.select],
  changelog: { passes: true },
  eventTime: { passes: true },
  defaults: {},
  fields: [
    {
      kind: 'expression',
      path: 'select',
      label: 'Select',
      expression: 'select',
      columns: 'input',
      placeholder: 'user, amount * 1.21 AS gross',
      help: 'A Flink SQL select list; * keeps every input column',
      empty: '',
    },
  ],
});
