/** `map`: computes new columns with a SQL select list. */
import { defineNode } from '../definition.ts';

export interface MapConfig {
  select: string;
}

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
  },
  ports: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
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
