/**
 * File > Import Flink SQL...: paste a script or pick a .sql file, see what has no Weir node (with
 * line and column), and open the job on the canvas as a new, unsaved document (host.importFlinkSql).
 */
import { useEffect, useState } from 'react';
import type { ImportResult } from '../../../engine/host/common/api.ts';
import { host } from '../host.ts';
import { docStore } from '../state.ts';
import { asJobDocument } from '../documents/actions.ts';
import { isDirty } from '../model/docStore.ts';
import { openDialog, useUi, notify } from '../ui/uiStore.ts';
import { Modal } from './Modal.tsx';
import { takeSqlDraft } from '../documents/sqlDraft.ts';

export function ImportFlinkSqlDialog() {
  const open = useUi((s) => s.dialog === 'import-flink-sql');
  const [sql, setSql] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const read = (text = sql) => {
    setError(null);
    host()
      .importFlinkSql({ sql: text })
      .then(setResult, (e) => setError(String(e?.message ?? e)));
  };
  useEffect(() => {
    if (!open) return;
    setResult(null);
    setError(null);
    // A dropped .sql file: shown and read at once.
    const draft = takeSqlDraft();
    if (draft) {
      setSql(draft.text);
      read(draft.text);
    }
  }, [open]);
  if (!open) return null;
  const openJob = () => {
    if (!result) return;
    if (isDirty(docStore.getState()) && !window.confirm('Discard unsaved changes to the current pipeline?')) return;
    docStore.getState().load(asJobDocument(result.job, 'imported.sql'), null, { dirty: true });
    openDialog(null);
    notify(`Imported ${result.job.nodes.length} nodes: save the job to keep it`);
  };
  return (
    <Modal title="Import Flink SQL" testId="import-flink-sql-dialog" wide>
      <input
        type="file"
        accept=".sql,text/plain"
        data-testid="import-flink-sql-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f)
            void f.text().then((t) => {
              setSql(t);
              setResult(null);
            });
        }}
      />
      <textarea
        className="export__text"
        value={sql}
        onChange={(e) => {
          setSql(e.target.value);
          setResult(null);
        }}
        placeholder="CREATE TABLE ... ; CREATE VIEW ... ; INSERT INTO ... ;"
        data-testid="import-flink-sql-text"
        spellCheck={false}
      />
      {error && (
        <div className="field__error" role="alert">
          {error}
        </div>
      )}
      {result && (
        <ul className="inspector__problems" data-testid="import-flink-sql-problems">
          {result.problems.length === 0 && <li>Everything in the script has a Weir node.</li>}
          {result.problems.map((p, i) => (
            <li key={i} className={p.severity === 'error' ? 'is-error' : 'is-warning'}>
              line {p.line}, column {p.column}: {p.message}
            </li>
          ))}
        </ul>
      )}
      <div className="modal__actions">
        <button
          type="button"
          className="btn"
          disabled={sql.trim() === ''}
          onClick={() => read()}
          data-testid="import-flink-sql-read"
        >
          Read script
        </button>
        <button
          type="button"
          className="btn btn--primary"
          disabled={!result}
          onClick={openJob}
          data-testid="import-flink-sql-open"
        >
          Open on canvas
        </button>
      </div>
    </Modal>
  );
}
