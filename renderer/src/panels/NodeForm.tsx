/**
 * The one inspector form: it draws a node type's field descriptors (its definition's `fields`) in
 * order, each with the widget of its kind, skipping those whose `when` does not hold for the
 * current config. A new node type gets its form by listing descriptors, never by writing one.
 */
import type { ComponentType } from 'react';
import type { JobNode } from '../../../engine/graph/types.ts';
import type { FieldConfig, FieldDescriptor, FieldKind } from '../../../engine/nodes/fields.ts';
import { InputColumnsNote } from './InputColumnsNote.tsx';
import { CheckInput, DurationInput, NumberInput, SelectInput, TextInput } from './BasicInputs.tsx';
import { ColumnsInput } from './ColumnsInput.tsx';
import { EventTimeGroup } from './EventTimeGroup.tsx';
import { ExpressionInput } from './ExpressionInput.tsx';
import { TestConnection } from './TestConnection.tsx';
import { KafkaTestConnection } from './KafkaTestConnection.tsx';
import { WindowInput } from './WindowInput.tsx';
import type { ErrorAt, FieldContext } from './fieldBinding.ts';

type Widgets = { [K in FieldKind]: ComponentType<FieldContext<Extract<FieldDescriptor, { kind: K }>>> };

const WIDGETS: Widgets = {
  text: TextInput,
  number: NumberInput,
  check: CheckInput,
  select: SelectInput,
  duration: DurationInput,
  expression: ExpressionInput,
  columns: ColumnsInput,
  eventTime: EventTimeGroup,
  window: WindowInput,
  testConnection: TestConnection,
  kafkaTest: KafkaTestConnection,
  inputColumns: ({ columns }) => <InputColumnsNote columns={columns} />,
  note: ({ field, config }) => <p className="note">{field.text(config)}</p>,
};

export interface NodeFormProps {
  node: JobNode;
  fields: readonly FieldDescriptor[];
  /** Columns reaching the node's input. */
  columns: readonly string[];
  err: ErrorAt;
}

export function NodeForm({ node, fields, columns, err }: NodeFormProps) {
  const config = node.config as unknown as FieldConfig;
  return (
    <>
      {fields.map((field, i) => {
        if (field.when && !field.when(config)) return null;
        // The kind picks the widget; TypeScript cannot pair a union's member with its widget itself.
        const Widget = WIDGETS[field.kind] as ComponentType<FieldContext>;
        return <Widget key={i} field={field} node={node} config={config} columns={columns} err={err} />;
      })}
    </>
  );
}
