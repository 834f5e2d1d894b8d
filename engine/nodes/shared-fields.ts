/** Fields several node types share: the joins' keys and select list, a source's event time. */
import type { FieldDescriptor } from './fields.ts';

/** Keys of both inputs and the select list; `windowColumns`: the select may name window_start/end. */
export function joinFields<C>(windowColumns: boolean): FieldDescriptor<C>[] {
  return [
    {
      kind: 'expression',
      path: 'leftKey',
      label: 'Left key',
      expression: 'keyBy',
      columns: 'left',
      placeholder: 'user',
      help: 'Columns of the left input (L)',
      empty: '',
    },
    {
      kind: 'expression',
      path: 'rightKey',
      label: 'Right key',
      expression: 'keyBy',
      columns: 'right',
      placeholder: 'user',
      help: 'Columns of the right input (R), in the same order',
      empty: '',
    },
    {
      kind: 'expression',
      path: 'select',
      label: 'Select',
      expression: windowColumns ? 'windowJoinSelect' : 'joinSelect',
      columns: 'both',
      placeholder: windowColumns ? 'window_start, L.user, R.country' : 'L.user, L.amount, R.country',
      help: `Columns as L.x (left) and R.x (right)${windowColumns ? ', and window_start, window_end' : ''}`,
      empty: '',
    },
  ];
}

/** The event-time group of a source; `columns`: what the source emits when it has them fixed. */
export function eventTimeField<C>(columns?: readonly string[]): FieldDescriptor<C> {
  return {
    kind: 'eventTime',
    path: 'eventTime',
    label: 'Records carry event time',
    help: 'Watermarks follow this column; windows need it.',
    ...(columns ? { columns } : {}),
  };
}
