/** `filter`: keeps the records for which a SQL condition is TRUE. */
import { z } from 'zod';
import { nonEmpty } from '../schema-pieces.ts';
import { firstInput } from '../columns.ts';
import { clip, str, uniq } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { referencedColumns } from '../../sql/index.ts';

export interface FilterConfig {
  where: string;
}

const configSchema = z.strictObject({ where: nonEmpty });
// Compile-time proof: the schema and FilterConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, FilterConfig>>;

export const filter = defineNode<'filter', FilterConfig>({
  type: 'filter',
  palette: {
    label: 'Filter',
    group: 'Transforms',
    idPrefix: 'filter',
    description: 'Keeps the records for which a SQL condition is true.',
    // funnel
    icon: 'M4 5h16l-6 7v6l-4 2v-8z',
    newConfig: () => ({ where: '' }),
    summary: (c) => clip(str(c.where) ? `where ${str(c.where)}` : 'where (empty)'),
  },
  ports: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  readColumns: (c) => ({ columns: referencedColumns('where', c.where), passes: true }),
  configSchema,
  // A condition names columns that must exist upstream even when the source's schema is unknown
  // (a file without declared columns): offer them downstream too.
  completionColumns: (c, ctx) => {
    const where = typeof c.where === 'string' ? c.where : '';
    return uniq([...ctx.input(), ...(where ? ctx.referenced('where', where) : [])]);
  },
  columnTypes: (_c, ctx) => ctx.input(),
  // Its input's columns, unchanged.
  columns: (c, ctx) => {
    const input = firstInput(ctx);
    ctx.checkExpression('where', 'where', c.where, input);
    return input;
  },
  expressions: (c) => [c.where],
  changelog: { passes: true },
  eventTime: { passes: true },
  defaults: {},
  fields: [
    {
      kind: 'expression',
      path: 'where',
      label: 'Where',
      expression: 'where',
      columns: 'input',
      placeholder: "amount >= 10 AND country = 'NL'",
      help: 'A Flink SQL condition; records where it is not TRUE are dropped',
      empty: '',
    },
  ],
});
