/**
 * The `columns` field kind: declared columns typed as `name TYPE, …` and stored as `{ name: TYPE }`.
 * A `sampled` field (a file source) shows what the host sampled from the data, with a button that
 * declares those columns; its help is shown while there is no sample.
 */
import { fieldLabel, type ColumnsFieldDescriptor } from '../../../engine/nodes/fields.ts';
import { TextField } from '../fields/fields.tsx';
import { sampledColumns, useSampled, type Sampled } from '../model/sampledColumns.ts';
import { useDoc } from '../state.ts';
import { bind, type FieldContext } from './fieldBinding.ts';

type Declared = Record<string, string>;

function columnsText(c: Declared | undefined): string | undefined {
  return c
    ? Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : undefined;
}

/** `user STRING, amount DOUBLE` to `{ user: 'STRING', amount: 'DOUBLE' }`; a name alone is a STRING. */
function parseColumns(text: string | undefined): Declared | undefined {
  if (!text) return undefined;
  const out: Declared = {};
  for (const part of text.split(',')) {
    const [name, ...type] = part.trim().split(/\s+/);
    if (name) out[name] = type.join(' ') || 'STRING';
  }
  return out;
}

export function ColumnsInput({ field, node, config, err }: FieldContext<ColumnsFieldDescriptor>) {
  const b = bind(node, config, err, field.path, field.empty);
  const declared = b.value as Declared | undefined;
  const path = useDoc((s) => s.path);
  const sampled = useSampled(() => sampledColumns(node, path));
  const hint = !field.sampled ? (
    field.help
  ) : declared ? (
    'Declared: these are the columns downstream fields offer'
  ) : (
    <SampledHint sampled={sampled} unsampled={field.help} onDeclare={(cols) => b.onChange(cols)} />
  );
  return (
    <TextField
      label={fieldLabel(field)}
      value={columnsText(declared)}
      testId={b.testId}
      error={b.error}
      placeholder={
        field.sampled ? (sampled?.columns.length ? 'as sampled below' : 'inferred from the data') : field.placeholder
      }
      hint={hint}
      onChange={(v) => b.onChange(parseColumns(v))}
    />
  );
}

/** What the host sampled from the data: its columns with their types, and a way to declare them. */
function SampledHint({
  sampled,
  unsampled,
  onDeclare,
}: {
  sampled: Sampled | null;
  unsampled: string | undefined;
  onDeclare: (cols: Declared) => void;
}) {
  if (!sampled) return <>{unsampled}</>;
  if (!sampled.columns.length)
    return (
      <span data-testid="source-columns" data-count={0}>
        Could not sample the data: {sampled.message ?? 'no records'}
      </span>
    );
  return (
    <span data-testid="source-columns" data-count={sampled.columns.length}>
      From the data:{' '}
      {sampled.columns.map((x, i) => (
        <span key={x.name}>
          {i ? ', ' : ''}
          <code>{x.name}</code> <span className="dim">{x.type}</span>
        </span>
      ))}{' '}
      <button
        type="button"
        className="linkish"
        data-testid="declare-columns"
        onClick={() => onDeclare(Object.fromEntries(sampled.columns.map((x) => [x.name, x.type])))}
      >
        declare them
      </button>
    </span>
  );
}
