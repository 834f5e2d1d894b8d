/**
 * React Flow changes of sticky notes, applied to the document: a drag previews and becomes one
 * undo step on release (as job nodes do), a resize likewise, selection goes to uiStore.
 */
import type { NodeChange } from '@xyflow/react';
import type { Position } from '../../../engine/graph/types.ts';
import { docStore } from '../state.ts';
import { uiStore } from '../ui/uiStore.ts';
import { moveNotes, setNoteSize } from '../model/annotations.ts';
import { setMeasured } from './measuredStore.ts';
import { NOTE_PREFIX, type GroupFlowNode, type NoteFlowNode } from './AnnotationViews.tsx';
import type { JobFlowNode } from './JobNodeView.tsx';

export type CanvasNode = JobFlowNode | NoteFlowNode | GroupFlowNode;

/** Applies the note changes among `changes`; true when there were any. */
export function noteChanges(changes: NodeChange<CanvasNode>[]): boolean {
  if (changes.length === 0) return false;
  const moved = new Map<string, Position>();
  let ended: string | null = null;
  const sizes: Array<{ id: string; size: { width: number; height: number } }> = [];
  for (const c of changes) {
    if (!('id' in c)) continue;
    const id = c.id.slice(NOTE_PREFIX.length);
    if (c.type === 'position') {
      if (c.position) moved.set(id, c.position);
      if (c.dragging === false) ended = 'move note';
    } else if (c.type === 'dimensions' && c.dimensions) {
      sizes.push({ id: c.id, size: c.dimensions });
      if (c.resizing !== undefined) {
        const size = c.dimensions;
        docStore.getState().preview((job) => setNoteSize(job, id, size));
        if (c.resizing === false) ended = 'resize note';
      }
    } else if (c.type === 'select') {
      const cur = uiStore.getState().selectedNote;
      if (c.selected) uiStore.setState({ selectedNote: id });
      else if (cur === id) uiStore.setState({ selectedNote: null });
    }
  }
  if (moved.size) docStore.getState().preview((job) => moveNotes(job, moved));
  if (ended) docStore.getState().commitDrag(ended);
  setMeasured(sizes);
  return true;
}
