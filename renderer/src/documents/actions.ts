/**
 * Document commands (New, Open, Save, Save As, examples, import by drop). They talk to the host
 * and the doc store; dialogs for served mode are components that end by calling these.
 */
import type { JobDocument } from '../../../engine/graph/types.ts';
import { docStore } from '../state.ts';
import { host, hostInfo } from '../host.ts';
import { emptyJob } from '../model/ops.ts';
import { isDirty } from '../model/docStore.ts';
import { notify, openDialog } from '../ui/uiStore.ts';
import { pushRecent } from './recent.ts';
import { clearAutosave } from './autosave.ts';
import { baseFolder, displayPath } from './paths.ts';
import { rebaseInputPaths, type RebasedPath } from '../../../engine/graph/rebase-paths.ts';
import { offerSql } from './sqlDraft.ts';

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
}

function confirmDiscard(): boolean {
  if (!isDirty(docStore.getState())) return true;
  return window.confirm('Discard unsaved changes to the current pipeline?');
}

/** A job read from disk or a drop: must at least look like weir.job/v1 to be opened. */
export function asJobDocument(data: unknown, source: string): JobDocument {
  const d = data as Partial<JobDocument> | null;
  if (!d || typeof d !== 'object' || d.format !== 'weir.job/v1') {
    throw new Error(`${source}: not a weir.job/v1 document (expected "format": "weir.job/v1")`);
  }
  return {
    ...d,
    name: typeof d.name === 'string' ? d.name : 'untitled',
    nodes: Array.isArray(d.nodes) ? d.nodes : [],
    edges: Array.isArray(d.edges) ? d.edges : [],
  } as JobDocument;
}

export function newDocument(): void {
  if (!confirmDiscard()) return;
  docStore.getState().load(emptyJob(), null);
  clearAutosave();
}

/** A Flink SQL script from the workspace (or a native dialog): read, then offered to Import Flink SQL. */
async function importScript(path: string): Promise<void> {
  try {
    const r = await host().readSqlScript({ path });
    offerSql(r.sql, displayPath(r.path) ?? r.path);
  } catch (e) {
    notify(`Could not read ${path}: ${message(e)}`, 'error');
  }
}

export async function openPath(path: string): Promise<void> {
  if (/\.sql$/i.test(path)) return importScript(path);
  try {
    const r = await host().readJob({ path });
    docStore.getState().load(asJobDocument(r.job, path), r.path);
    pushRecent(r.path);
    clearAutosave();
  } catch (e) {
    notify(`Could not open ${path}: ${message(e)}`, 'error');
  }
}

export async function openDocument(): Promise<void> {
  if (!confirmDiscard()) return;
  if (hostInfo()?.nativeDialogs) {
    try {
      const r = await host().showOpenDialog({});
      if (r.path) await openPath(r.path);
    } catch (e) {
      notify(message(e), 'error');
    }
    return;
  }
  openDialog('open');
}

/**
 * Relative input paths rebased from the document's folder to the one it is saved into, so they
 * still read the same files (engine/graph/rebase-paths.ts); the edit is undoable.
 */
function rebaseForSave(target: string): RebasedPath[] {
  const s = docStore.getState();
  const from = baseFolder(s.path);
  const to = baseFolder(target);
  if (!from || !to) return [];
  const { job, rebased } = rebaseInputPaths(s.job, from, to);
  if (rebased.length) s.commit('Rebase input paths', () => job);
  return rebased;
}

function rebasedText(rebased: RebasedPath[]): string {
  if (!rebased.length) return '';
  const list = rebased.map((r) => `${r.nodeId}: ${r.from} → ${r.to}`).join(', ');
  return `; ${rebased.length === 1 ? 'an input path was' : `${rebased.length} input paths were`} rebased to read the same files from the new folder (${list})`;
}

export async function saveTo(path: string): Promise<boolean> {
  const rebased = rebaseForSave(path);
  const { job } = docStore.getState();
  try {
    const r = await host().writeJob({ path, job });
    docStore.getState().markSaved(r.path, job);
    pushRecent(r.path);
    clearAutosave();
    const problems = docStore.getState().problems.all.length;
    notify(
      (problems
        ? `Saved ${displayPath(r.path)} (${problems} problem${problems > 1 ? 's' : ''} to fix before it runs)`
        : `Saved ${displayPath(r.path)}`) + rebasedText(rebased),
    );
    return true;
  } catch (e) {
    notify(`Could not save: ${message(e)}`, 'error');
    return false;
  }
}

export async function save(): Promise<void> {
  const { path } = docStore.getState();
  if (path) await saveTo(path);
  else await saveAs();
}

export async function saveAs(): Promise<void> {
  if (hostInfo()?.nativeDialogs) {
    try {
      const r = await host().showSaveDialog({ suggestedPath: docStore.getState().path ?? undefined });
      if (r.path) await saveTo(r.path);
    } catch (e) {
      notify(message(e), 'error');
    }
    return;
  }
  openDialog('save-as');
}

export async function openExample(id: string): Promise<void> {
  if (!confirmDiscard()) return;
  try {
    const r = await host().openExample({ id });
    docStore.getState().load(asJobDocument(r.job, r.path), r.path);
    pushRecent(r.path);
    clearAutosave();
    openDialog(null);
  } catch (e) {
    notify(`Could not open the example: ${message(e)}`, 'error');
  }
}

/** A file dropped on the window: a job opens as a new, unsaved document; a .sql script is imported. */
export async function importFile(file: File): Promise<void> {
  if (/\.sql$/i.test(file.name)) {
    offerSql(await file.text(), file.name);
    return;
  }
  try {
    const job = asJobDocument(JSON.parse(await file.text()), file.name);
    if (!confirmDiscard()) return;
    docStore.getState().load(job, null, { dirty: true });
    notify(`Imported ${file.name}: save it to keep it`);
  } catch (e) {
    notify(e instanceof SyntaxError ? `${file.name}: not valid JSON (${e.message})` : message(e), 'error');
  }
}
