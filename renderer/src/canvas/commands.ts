/**
 * Editing commands shared by keyboard shortcuts, the toolbar and context actions. Each is one
 * undo step through the doc store.
 */
import type { NodeType, Position } from '../../../engine/graph/types.ts';
import { docStore } from '../state.ts';
import { addNode, addEdge, moveNodes, removeItems } from '../model/ops.ts';
import { checkConnection } from '../model/connections.ts';
import type { OutputPort } from '../model/catalog.ts';
import { copyFragment, parseFragment, pasteFragment } from '../model/clipboard.ts';
import { layoutJob } from '../model/layout.ts';
import { addGroup, addNote, pruneGroups, removeNote } from '../model/annotations.ts';
import { notify, uiStore } from '../ui/uiStore.ts';
import { measuredStore } from './measuredStore.ts';

export function addNodeAt(type: NodeType, position: Position): string {
  let id = '';
  docStore.getState().commit(
    `add ${type}`,
    (job) => {
      const r = addNode(job, type, position);
      id = r.id;
      return r.job;
    },
    { select: [] },
  );
  docStore.getState().select([id]);
  return id;
}

/** Add a node and connect an output to it, as one undo step (a connection dropped on the canvas). */
export function addNodeConnected(
  type: NodeType,
  position: Position,
  from: { nodeId: string; port: OutputPort },
): string {
  let id = '';
  docStore.getState().commit(`add ${type}`, (job) => {
    const r = addNode(job, type, position);
    id = r.id;
    const v = checkConnection(r.job, { from: from.nodeId, to: id, fromPort: from.port });
    return v.ok ? addEdge(r.job, v.edge) : r.job;
  });
  docStore.getState().select([id]);
  return id;
}

export function deleteSelection(): void {
  const s = docStore.getState();
  const note = uiStore.getState().selectedNote;
  if (s.selectedNodes.size === 0 && s.selectedEdges.size === 0) {
    if (note) {
      uiStore.setState({ selectedNote: null });
      s.commit('delete note', (job) => removeNote(job, note));
    }
    return;
  }
  // Deleted nodes leave their groups (a group left empty goes with them).
  s.commit('delete', (job) => pruneGroups(removeItems(job, s.selectedNodes, s.selectedEdges)));
}

/** The selection as clipboard text, or null when nothing is selected. */
export function selectionText(): string | null {
  const s = docStore.getState();
  const frag = copyFragment(s.job, s.selectedNodes);
  return frag ? JSON.stringify(frag, null, 2) : null;
}

// Fallback when the system clipboard is unavailable (no permission, no secure context).
let localClipboard: string | null = null;
let pasteCount = 0;

export function rememberCopied(text: string): void {
  localClipboard = text;
  pasteCount = 0;
}

export function pasteText(text: string | null | undefined): boolean {
  const frag = parseFragment(text ?? localClipboard ?? '');
  if (!frag) return false;
  if (text && text !== localClipboard) {
    localClipboard = text;
    pasteCount = 0;
  }
  pasteCount++;
  const d = 40 * pasteCount;
  let ids: string[] = [];
  docStore.getState().commit(`paste ${frag.nodes.length} node(s)`, (job) => {
    const r = pasteFragment(job, frag, { offset: { x: d, y: d } });
    ids = r.ids;
    return r.job;
  });
  docStore.getState().select(ids);
  return true;
}

export function duplicateSelection(): void {
  const s = docStore.getState();
  const frag = copyFragment(s.job, s.selectedNodes);
  if (!frag) return;
  let ids: string[] = [];
  s.commit('duplicate', (job) => {
    const r = pasteFragment(job, frag, { offset: { x: 40, y: 40 } });
    ids = r.ids;
    return r.job;
  });
  docStore.getState().select(ids);
}

export function nudgeSelection(dx: number, dy: number): void {
  const s = docStore.getState();
  if (s.selectedNodes.size === 0) return;
  const pos = new Map<string, Position>();
  for (const n of s.job.nodes) {
    if (s.selectedNodes.has(n.id)) pos.set(n.id, { x: (n.position?.x ?? 0) + dx, y: (n.position?.y ?? 0) + dy });
  }
  s.commit('move', (job) => moveNodes(job, pos), { coalesceKey: 'nudge' });
}

export async function autoLayout(): Promise<void> {
  const s = docStore.getState();
  if (s.job.nodes.length === 0) return;
  try {
    const sizes = measuredStore.getState().sizes;
    const positions = await layoutJob(s.job, sizes);
    docStore.getState().commit('auto-layout', (job) => moveNodes(job, positions));
    zoomToFit();
  } catch (e) {
    notify(`Auto-layout failed: ${(e as Error).message}`, 'error');
  }
}

export function zoomToFit(): void {
  uiStore.setState((s) => ({ fitRequest: s.fitRequest + 1 }));
}

export function toggleSnap(): void {
  uiStore.setState((s) => ({ snapToGrid: !s.snapToGrid }));
}

export function toggleMinimap(): void {
  uiStore.setState((s) => ({ showMinimap: !s.showMinimap }));
}

type ScreenToFlow = (p: { x: number; y: number }) => { x: number; y: number };
let screenToFlow: ScreenToFlow = (p) => p;
/** The canvas hands over its coordinate mapping, so commands run from shortcuts can place things. */
export function bindScreenToFlow(fn: ScreenToFlow): void {
  screenToFlow = fn;
}

/**
 * A sticky note (N), its text field focused: just above the topmost node, where it covers
 * nothing; on an empty canvas, in the middle of the view.
 */
export function addNoteInView(): void {
  const nodes = docStore.getState().job.nodes.filter((n) => n.position);
  let at: Position;
  if (nodes.length) {
    const top = Math.min(...nodes.map((n) => n.position!.y));
    const left = Math.min(...nodes.filter((n) => n.position!.y === top).map((n) => n.position!.x));
    at = { x: left, y: top - 140 };
  } else {
    const el = document.querySelector('.canvas')?.getBoundingClientRect();
    at = screenToFlow({
      x: (el?.left ?? 0) + (el?.width ?? 600) / 2 - 110,
      y: (el?.top ?? 0) + (el?.height ?? 400) / 3,
    });
  }
  let id = '';
  docStore.getState().commit('add note', (job) => {
    const r = addNote(job, at);
    id = r.id;
    return r.job;
  });
  if (nodes.length) zoomToFit(); // the spot above the graph may be outside the view
  requestAnimationFrame(() => document.querySelector<HTMLTextAreaElement>(`[data-testid="note-text-${id}"]`)?.focus());
}

/** Frame the selected nodes in a new group (Ctrl+G). */
export function groupSelection(): void {
  const s = docStore.getState();
  if (s.selectedNodes.size === 0) {
    notify('Select the nodes to group first');
    return;
  }
  s.commit('group', (job) => addGroup(job, s.selectedNodes).job);
}
