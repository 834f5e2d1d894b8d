/**
 * The `eventTime` field kind: a check box that turns event time on (guessing the time column), then
 * the time column, the max out-of-orderness and the idle timeout, in a group of their own.
 */
import {
  fieldLabel,
  type DurationFieldDescriptor,
  type EventTimeFieldDescriptor,
  type TextFieldDescriptor,
} from '../../../engine/nodes/fields.ts';
import { EVENT_TIME_DEFAULTS } from '../../../engine/nodes/config.ts';
import { CheckField } from '../fields/fields.tsx';
import { DurationInput, TextInput } from './BasicInputs.tsx';
import { sampledColumns, useSampled } from '../model/sampledColumns.ts';
import { useDoc } from '../state.ts';
import { bind, readAt, type FieldContext } from './fieldBinding.ts';

/** The columns the time column is guessed from: the descriptor's, the input's, declared or sampled ones. */
function useOwnColumns({ field, node, config, columns }: FieldContext<EventTimeFieldDescriptor>): readonly string[] {
  const path = useDoc((s) => s.path);
  const sampled = useSampled(() => sampledColumns(node, path));
  if (field.columns) return field.columns;
  if (columns.length) return columns;
  const declared = readAt(config, 'columns');
  if (declared && typeof declared === 'object') return Object.keys(declared);
  return sampled?.columns.map((x) => x.name) ?? [];
}

/** The group's parts, below the check box; paths are relative to the group's (`eventTime.field`). */
const PARTS: readonly (TextFieldDescriptor | DurationFieldDescriptor)[] = [
  { kind: 'text', path: 'field', label: 'Time column', help: 'Epoch milliseconds or an ISO-8601 string', empty: '' },
  {
    kind: 'duration',
    path: 'maxOutOfOrderness',
    label: 'Max out-of-orderness',
    placeholder: String(EVENT_TIME_DEFAULTS.maxOutOfOrderness),
    help: 'How long the watermark waits for late events',
  },
  {
    kind: 'duration',
    path: 'idleTimeout',
    label: 'Idle timeout',
    placeholder: EVENT_TIME_DEFAULTS.idleTimeout === null ? 'never' : String(EVENT_TIME_DEFAULTS.idleTimeout),
    help: 'An input silent this long stops holding the watermark back',
  },
];

export function EventTimeGroup(ctx: FieldContext<EventTimeFieldDescriptor>) {
  const { field, node, config, err } = ctx;
  const own = useOwnColumns(ctx);
  const group = bind(node, config, err, field.path);
  return (
    <fieldset className="group">
      <legend>Event time</legend>
      <CheckField
        label={fieldLabel(field)}
        value={!!group.value}
        testId={group.testId}
        onChange={(on) =>
          group.onChange(on ? { field: own.includes('ts') ? 'ts' : 'time', maxOutOfOrderness: '1s' } : undefined)
        }
        hint={field.help}
      />
      {!!group.value &&
        PARTS.map((part) => {
          const inGroup = { ...part, path: `${field.path}.${part.path}` };
          return inGroup.kind === 'text' ? (
            <TextInput key={part.path} {...ctx} field={inGroup} />
          ) : (
            <DurationInput key={part.path} {...ctx} field={inGroup} />
          );
        })}
    </fieldset>
  );
}
