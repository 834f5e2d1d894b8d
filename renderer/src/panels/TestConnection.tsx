/**
 * The `testConnection` field kind: the PostgreSQL "Test connection" button. It asks the host
 * (EngineHost.testPostgres) to connect with the config's url, passwordEnv and table and shows the
 * table's columns or the one-line reason it failed. The password never enters the document: the
 * form names the environment variable the host reads it from.
 */
import { useState } from 'react';
import type { PostgresTableReport } from '../../../engine/host/common/api.ts';
import type { TestConnectionFieldDescriptor } from '../../../engine/nodes/fields.ts';
import { host } from '../host.ts';
import type { FieldContext } from './fieldBinding.ts';

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function TestConnection({ field, config }: FieldContext<TestConnectionFieldDescriptor>) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<PostgresTableReport | null>(null);
  const url = text(config.url);
  const table = text(config.table);
  const passwordEnv = text(config.passwordEnv);
  const test = () => {
    setBusy(true);
    host()
      .testPostgres({ url, table, ...(passwordEnv ? { passwordEnv } : {}) })
      .then(setReport, (e: unknown) => setReport({ ok: false, message: String((e as Error)?.message ?? e) }))
      .finally(() => setBusy(false));
  };
  const id = field.testId;
  return (
    <div className="field">
      <button type="button" className="btn" data-testid={id} disabled={busy || !url || !table} onClick={test}>
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
