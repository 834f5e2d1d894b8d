/** `union`: merges two or more streams; its watermark is the minimum of its inputs'. */
import { z } from 'zod';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

export type UnionConfig = Record<string, never>;

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

const configSchema = z.strictObject({});
// Compile-time proof: the schema and UnionConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, UnionConfig>>;

export const union = defineNode<'union', UnionConfig>({
  type: 'union',
  palette: {
    label: 'Union',
    group: 'Transforms',
    idPrefix: 'union',
    description: 'Merges several streams into one; watermarks advance with the slowest input.',
    // merge
    icon: 'M4 6c6 0 8 6 16 6 M4 18c6 0 8-6 16-6',
    newConfig: () => ({}),
    summary: () => 'merge inputs',
  },
  ports: { outputs: ['out'], minInputs: 2, maxInputs: Infinity },
  readColumns: () => ({ columns: [], passes: true }),
  configSchema,
  columnTypes: (_c, ctx) => ctx.input(),
  // Its inputs' columns, which must be the same (in any order).
  columns: (_c, ctx) => {
    const ins = ctx.inputs.map((i) => i.columns);
    const known = ins.filter((c): c is readonly string[] => c !== null);
    if (known.length === ins.length && known.length > 1 && !known.every((c) => sameColumns(c, known[0]))) {
      ctx.error(
        ctx.path(),
        `union inputs have different columns: ${known.map((c) => `(${c.join(', ')})`).join(' vs ')}`,
      );
    }
    return known.length === ins.length && ins.length > 0 ? known[0] : null;
  },
  changelog: { passes: true },
  eventTime: { passes: true },
  defaults: {},
  fields: [
    {
      kind: 'note',
      text: () => "Merges every connected input. Its watermark is the minimum of its inputs' watermarks.",
    },
  ],
});
