/** The plain field kinds (text, number, check, select, duration): a typed input bound to its path. */
import {
  fieldLabel,
  type CheckFieldDescriptor,
  type DurationFieldDescriptor,
  type NumberFieldDescriptor,
  type SelectFieldDescriptor,
  type TextFieldDescriptor,
} from '../../../engine/nodes/fields.ts';
import { CheckField, DurationField, NumberField, SelectField, TextField } from '../fields/fields.tsx';
import { bind, type FieldContext } from './fieldBinding.ts';

type Plain =
  TextFieldDescriptor | NumberFieldDescriptor | CheckFieldDescriptor | SelectFieldDescriptor | DurationFieldDescriptor;

function common({ field, node, config, err }: FieldContext<Plain>) {
  const b = bind(node, config, err, field.path, field.empty);
  return {
    b,
    props: {
      label: fieldLabel(field),
      testId: b.testId,
      error: b.error,
      hint: field.help,
      placeholder: field.placeholder,
    },
  };
}

export function TextInput(ctx: FieldContext<TextFieldDescriptor>) {
  const { b, props } = common(ctx);
  // A number in a text field (an interval bound written as milliseconds) is shown as written.
  const v = typeof b.value === 'number' ? String(b.value) : (b.value as string | undefined);
  return <TextField {...props} value={v} onChange={b.onChange} />;
}

export function NumberInput(ctx: FieldContext<NumberFieldDescriptor>) {
  const { b, props } = common(ctx);
  const f = ctx.field;
  return (
    <NumberField
      {...props}
      value={b.value as number | undefined}
      integer={f.integer}
      min={f.min}
      onChange={b.onChange}
    />
  );
}

export function CheckInput(ctx: FieldContext<CheckFieldDescriptor>) {
  const { b, props } = common(ctx);
  return <CheckField {...props} value={b.value as boolean | undefined} onChange={b.onChange} />;
}

export function SelectInput(ctx: FieldContext<SelectFieldDescriptor>) {
  const { b, props } = common(ctx);
  return (
    <SelectField
      {...props}
      value={b.value as string | undefined}
      options={ctx.field.options}
      allowUnset={ctx.field.unset}
      onChange={b.onChange}
    />
  );
}

export function DurationInput(ctx: FieldContext<DurationFieldDescriptor>) {
  const { b, props } = common(ctx);
  return <DurationField {...props} value={b.value as number | string | undefined} onChange={b.onChange} />;
}
