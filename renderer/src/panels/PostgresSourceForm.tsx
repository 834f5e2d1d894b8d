/**
 * The `source.postgres` form: where the table is (with the shared "Test connection" button), the
 * mode, the declared columns (what validation and export see before any connection) and event time.
 */
import type { PostgresSourceConfig } from '../../../engine/graph/types.ts';
import { SelectField, TextField } from '../fields/fields.tsx';
import { editConfig } from './edit.ts';
import { EventTimeFields, type FormProps } from './NodeForms.tsx';
import { EndpointFields, TestConnectionButton } from './PostgresForm.tsx';

const MODES = [
  { value: 'cdc', label: 'CDC (snapshot, then every change: a changelog)' },
  { value: 'snapshot', label: 'Snapshot (read the table once, in key order)' },
] as const;

function columnsText(c: PostgresSourceConfig['columns']): string | undefined {
  return c
    ? Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : undefined;
}

function parseColumns(text: string | undefined): PostgresSourceConfig['columns'] {
  if (!text) return undefined;
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const [name, ...type] = part.trim().split(/\s+/);
    if (name) out[name] = type.join(' ') || 'STRING';
  }
  return out;
}

export function PostgresSourceForm({ node, err, columns }: FormProps<'source.postgres'>) {
  const c = node.config;
  return (
    <>
      <EndpointFields node={node} err={err} tableHint="schema.table, with a primary key" />
      <SelectField
        label="Mode"
        value={c.mode}
        options={MODES}
        testId="f-mode"
        error={err('mode')}
        onChange={(v) => editConfig(node.id, ['mode'], v ?? 'cdc')}
      />
      <TestConnectionButton url={c.url} passwordEnv={c.passwordEnv} table={c.table} testId="pg-source-test" />
      <TextField
        label="Columns"
        value={columnsText(c.columns)}
        testId="f-columns"
        placeholder="id BIGINT, amount DECIMAL(10, 2)"
        error={err('columns')}
        hint="Name and Flink SQL type, for validation and export (the run reads the table's own)"
        onChange={(v) => editConfig(node.id, ['columns'], parseColumns(v))}
      />
      <TextField
        label="Primary key"
        value={c.primaryKey}
        testId="f-primaryKey"
        placeholder="id"
        error={err('primaryKey')}
        hint="For the Flink SQL export (PRIMARY KEY NOT ENFORCED)"
        onChange={(v) => editConfig(node.id, ['primaryKey'], v || undefined)}
      />
      <EventTimeFields id={node.id} et={c.eventTime} err={err} columns={columns} />
      {c.mode === 'cdc' && (
        <p className="note">
          A changelog (+I, -U, +U, -D): the table needs REPLICA IDENTITY FULL. The replication slot is confirmed only
          when a checkpoint completes, and stays when the job stops: drop it when the job is retired.
        </p>
      )}
    </>
  );
}
