/**
 * The `window` field kind: a kind select (tumbling, sliding, session), then the size, slide or gap
 * that kind has. Switching kind replaces the whole window and keeps its length. An optional window
 * (topn's "per window") may be absent.
 */
import type { WindowSpec } from '../../../engine/graph/types.ts';
import { fieldLabel, type WindowFieldDescriptor } from '../../../engine/nodes/fields.ts';
import { NEW_WINDOW } from '../../../engine/nodes/config.ts';
import { DurationField, SelectField } from '../fields/fields.tsx';
import { setIn } from '../model/ops.ts';
import { replaceConfig } from './edit.ts';
import { bind, readAt, type FieldContext } from './fieldBinding.ts';

const WINDOW_KINDS = [
  { value: 'tumbling', label: 'Tumbling (fixed, non-overlapping)' },
  { value: 'sliding', label: 'Sliding (overlapping)' },
  { value: 'session', label: 'Session (closes after a gap)' },
] as const;

/** A window of another kind that keeps the old one's length (size or gap). */
function windowOfKind(kind: WindowSpec['kind'], old: WindowSpec): WindowSpec {
  const size = old.kind === 'session' ? old.gap : old.size;
  if (kind === 'tumbling') return { kind, size };
  if (kind === 'sliding') return { kind, size, slide: old.kind === 'sliding' ? old.slide : size };
  return { kind, gap: size };
}

export function WindowInput({ field, node, config, err }: FieldContext<WindowFieldDescriptor>) {
  const written = readAt(config, field.path) as WindowSpec | undefined;
  const w = written ?? (field.optional === undefined ? NEW_WINDOW.tumbling : undefined);
  const kind = bind(node, config, err, `${field.path}.kind`);
  const part = (name: string) => bind(node, config, err, `${field.path}.${name}`, '');
  // Sizes show the window on screen (a fresh one before any is written) and edit its own key.
  const duration = (name: 'size' | 'slide' | 'gap', value: string | number, label: string) => {
    const b = part(name);
    return <DurationField label={label} value={value} testId={b.testId} error={b.error} onChange={b.onChange} />;
  };
  return (
    <>
      <SelectField
        label={fieldLabel(field)}
        value={w?.kind}
        allowUnset={field.optional}
        options={WINDOW_KINDS}
        testId={kind.testId}
        error={kind.error}
        onChange={(v) =>
          // One undo step per switch (not coalesced like typing): the whole window is replaced.
          replaceConfig(
            node.id,
            setIn(config, field.path.split('.'), v === undefined ? undefined : w ? windowOfKind(v, w) : NEW_WINDOW[v]),
          )
        }
      />
      {w && w.kind !== 'session' && duration('size', w.size, field.sizeLabel ?? 'Size')}
      {w?.kind === 'sliding' && duration('slide', w.slide, 'Slide')}
      {w?.kind === 'session' && duration('gap', w.gap, 'Gap')}
    </>
  );
}
