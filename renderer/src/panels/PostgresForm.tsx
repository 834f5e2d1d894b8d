/**
 * The `sink.postgres` form and the "Test connection" button it shares with the PostgreSQL source's
 * form: the button asks the host (EngineHost.testPostgres) to connect and describe the table, and
 * shows its columns or the one-line reason it failed. The password never enters the document: the
 * form names the environment variable the host reads it from.
 */
import { useState } from 'react';
import type { PostgresTableReport } from '../../../engine/host/common/api.ts';
import { host } from '../host.ts';
import { SelectField, TextField } from '../fields/fields.tsx';
import { InputColumnsNote } from './InputColumnsNote.tsx';
import { editConfig } from './edit.ts';
import type { FormProps } from './NodeForms.tsx';

const MODES = [
  { value: 'append', label: 'Append (insert every row)' },
  { value: 'upsert', label: 'Upsert (apply a changelog by key)' },
] as const;

/** Connects with the form's url, passwordEnv and table; shows the table's columns or why it failed. */
export function TestConnectionButton(p: { url: string; passwordEnv?: string; table: string; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<PostgresTableReport | null>(null);
  const test = () => {
    setBusy(true);
    host()
      .testPostgres({ url: p.url, table: p.table, ...(p.passwordEnv ? { passwordEnv: p.passwordEnv } : {}) })
      .then(setReport, (e: unknown) => setReport({ ok: false, message: String((e as Error)?.message ?? e) }))
      .finally(() => setBusy(false));
  };
  const id = p.testId ?? 'pg-test';
  return (
    <div className="field">
      <button type="button" className="btn" data-testid={id} disabled={busy || !p.url || !p.table} onClick={test}>
        {busy ? 'Connecting…' : 'Test connection'}
      </button>
      {report && !report.ok && (
        <p className="field-error" data-testid={`${id}-error`}>
          {report.message}
        </p>
      )}
      {report?.ok && (
        <p className="note" data-testid={`${id}-columns`}>
          {report.table}: {report.columns?.map((c) => `${c.name} ${c.type}`).join(', ')}
          {report.uniqueKeys && report.uniqueKeys.length > 0 && (
            <span className="dim"> · unique: {report.uniqueKeys.map((k) => `(${k.join(', ')})`).join(', ')}</span>
          )}
        </p>
      )}
    </div>
  );
}

/** The connection fields the PostgreSQL source and sink share: URL, password variable, table. */
export function EndpointFields({
  node,
  err,
  tableHint,
}: {
  node: FormProps<'sink.postgres'>['node'] | FormProps<'source.postgres'>['node'];
  err: FormProps<'sink.postgres'>['err'];
  tableHint: string;
}) {
  const c = node.config;
  return (
    <>
      <TextField
        label="URL"
        value={c.url}
        testId="f-url"
        error={err('url')}
        hint="postgresql://user@host:5432/db (no password here)"
        onChange={(v) => editConfig(node.id, ['url'], v ?? '')}
      />
      <TextField
        label="Password variable"
        value={c.passwordEnv}
        testId="f-passwordEnv"
        placeholder="PGPASSWORD"
        error={err('passwordEnv')}
        hint="Environment variable holding the password, read when the job runs"
        onChange={(v) => editConfig(node.id, ['passwordEnv'], v || undefined)}
      />
      <TextField
        label="Table"
        value={c.table}
        testId="f-table"
        error={err('table')}
        hint={tableHint}
        onChange={(v) => editConfig(node.id, ['table'], v ?? '')}
      />
    </>
  );
}

export function PostgresSinkForm({ node, err, columns }: FormProps<'sink.postgres'>) {
  const c = node.config;
  return (
    <>
      <EndpointFields node={node} err={err} tableHint="An existing table: schema.table" />
      <SelectField
        label="Mode"
        value={c.mode}
        options={MODES}
        testId="f-mode"
        error={err('mode')}
        onChange={(v) => editConfig(node.id, ['mode'], v ?? 'append')}
      />
      {c.mode === 'upsert' && (
        <TextField
          label="Key"
          value={c.key}
          testId="f-key"
          error={err('key')}
          hint="Columns of a primary key or unique constraint: id, day"
          onChange={(v) => editConfig(node.id, ['key'], v || undefined)}
        />
      )}
      <TestConnectionButton url={c.url} passwordEnv={c.passwordEnv} table={c.table} />
      <InputColumnsNote columns={columns} />
      <p className="note">
        Exactly once: rows become visible when the checkpoint that covers them completes (prepared transactions).
      </p>
    </>
  );
}
