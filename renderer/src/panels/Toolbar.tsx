/** Top bar: document commands, edit commands, the job name with its dirty marker, Run and status. */
import { useDoc } from '../state.ts';
import { isDirty } from '../model/docStore.ts';
import { canRedo, canUndo, redoLabel, undoLabel } from '../model/history.ts';
import { openDialog } from '../ui/uiStore.ts';
import { newDocument, openDocument, save, saveAs } from '../documents/actions.ts';
import { addNoteInView, autoLayout, groupSelection, zoomToFit } from '../canvas/commands.ts';
import { docStore } from '../state.ts';
import { RunControls } from './RunControls.tsx';
import { openFlinkDialog } from '../flink/flinkActions.ts';
import { displayPath } from '../documents/paths.ts';
import { PreviewButton } from '../debug/PreviewButton.tsx';

function Btn(p: {
  label: string;
  title: string;
  onClick: () => void;
  testId?: string;
  disabled?: boolean;
  primary?: boolean;
}) {
  return (
    <button
      type="button"
      className={`btn${p.primary ? ' btn--primary' : ''}`}
      title={p.title}
      disabled={p.disabled}
      data-testid={p.testId}
      onClick={p.onClick}
    >
      {p.label}
    </button>
  );
}

export function Toolbar() {
  const name = useDoc((s) => s.job.name);
  const path = useDoc((s) => s.path);
  const dirty = useDoc(isDirty);
  const undoable = useDoc((s) => canUndo(s.history));
  const redoable = useDoc((s) => canRedo(s.history));
  const uLabel = useDoc((s) => undoLabel(s.history));
  const rLabel = useDoc((s) => redoLabel(s.history));
  const hasSelection = useDoc((s) => s.selectedNodes.size > 0);
  return (
    <header className="toolbar">
      <div className="toolbar__brand">
        <span className="logo" aria-hidden="true">
          ≋
        </span>
        Weir
      </div>
      <div className="toolbar__group">
        <Btn label="New" title="New pipeline (Alt+N)" testId="doc-new" onClick={newDocument} />
        <Btn
          label="Open"
          title="Open (Ctrl+O)"
          testId="doc-open"
          onClick={() => {
            void openDocument();
          }}
        />
        <Btn
          label="Save"
          title="Save (Ctrl+S)"
          testId="doc-save"
          onClick={() => {
            void save();
          }}
        />
        <Btn
          label="Save as"
          title="Save as (Ctrl+Shift+S)"
          testId="doc-save-as"
          onClick={() => {
            void saveAs();
          }}
        />
        <Btn
          label="Examples"
          title="Example pipelines (Alt+E)"
          testId="examples"
          onClick={() => openDialog('examples')}
        />
        <Btn
          label="Import SQL"
          title="Import a Flink SQL script onto the canvas (or drop a .sql file on the window)"
          testId="import-flink-sql"
          onClick={() => openDialog('import-flink-sql')}
        />
        <Btn
          label="Export"
          title="Export as JSON or Flink SQL (Ctrl+Shift+E)"
          testId="export"
          onClick={() => openDialog('export')}
        />
        <Btn
          label="Run on Flink"
          title="Run this job on Apache Flink: a local MiniCluster or a SQL Gateway"
          testId="run-on-flink"
          onClick={() => {
            void openFlinkDialog();
          }}
        />
      </div>
      <div className="toolbar__group">
        <Btn
          label="↶"
          title={uLabel ? `Undo ${uLabel} (Ctrl+Z)` : 'Undo (Ctrl+Z)'}
          testId="undo"
          disabled={!undoable}
          onClick={() => docStore.getState().undo()}
        />
        <Btn
          label="↷"
          title={rLabel ? `Redo ${rLabel} (Ctrl+Shift+Z)` : 'Redo (Ctrl+Shift+Z)'}
          testId="redo"
          disabled={!redoable}
          onClick={() => docStore.getState().redo()}
        />
        <Btn
          label="Layout"
          title="Auto-layout (L)"
          testId="auto-layout"
          onClick={() => {
            void autoLayout();
          }}
        />
        <Btn label="Fit" title="Zoom to fit (F)" testId="zoom-fit" onClick={zoomToFit} />
        <Btn label="Note" title="Add a sticky note (N)" testId="add-note" onClick={addNoteInView} />
        <Btn
          label="Group"
          title="Frame the selected nodes in a labelled group (Ctrl+G)"
          testId="group"
          disabled={!hasSelection}
          onClick={groupSelection}
        />
        <Btn label="?" title="Keyboard shortcuts (?)" testId="help" onClick={() => openDialog('help')} />
      </div>
      <div className="toolbar__doc" title={path ?? 'not saved yet'}>
        <span className="toolbar__name" data-testid="job-name">
          {name || 'untitled'}
        </span>
        {dirty && (
          <span className="toolbar__dirty" data-testid="dirty" title="Unsaved changes">
            ●
          </span>
        )}
        <span className="toolbar__path" data-testid="doc-path">
          {displayPath(path) ?? 'unsaved'}
        </span>
      </div>
      <PreviewButton />
      <RunControls />
    </header>
  );
}
