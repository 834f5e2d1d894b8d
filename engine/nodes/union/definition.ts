/** `union`: merges two or more streams; its watermark is the minimum of its inputs'. */
import { z } from 'zod';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

export type UnionConfig = Record<string, never>;

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
  },
  ports: { outputs: ['out'], minInputs: 2, maxInputs: Infinity },
  configSchema,
  changelog: { passes: true },
  defaults: {},
  fields: [
    {
      kind: 'note',
      text: () => "Merges every connected input. Its watermark is the minimum of its inputs' watermarks.",
    },
  ],
});
