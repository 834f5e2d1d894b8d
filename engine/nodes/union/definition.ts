/** `union`: merges two or more streams; its watermark is the minimum of its inputs'. */
import { defineNode } from '../definition.ts';

export type UnionConfig = Record<string, never>;

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
  defaults: {},
  fields: [
    {
      kind: 'note',
      text: () => "Merges every connected input. Its watermark is the minimum of its inputs' watermarks.",
    },
  ],
});
