/**
 * React Flow nodes for the document's groups (frames behind the job nodes) and notes (above them).
 * Group frames follow their members: recomputed from positions and measured sizes.
 */
import { useMemo } from 'react';
import { useDoc } from '../state.ts';
import { useMeasured } from './measuredStore.ts';
import { groupFrame, NOTE_SIZE } from '../model/annotations.ts';
import { DEFAULT_NODE_SIZE } from '../model/layout.ts';
import { GROUP_PREFIX, NOTE_PREFIX, type GroupFlowNode, type NoteFlowNode } from './AnnotationViews.tsx';
import { useUi } from '../ui/uiStore.ts';

export function useGroupNodes(): GroupFlowNode[] {
  const job = useDoc((s) => s.job);
  const measured = useMeasured();
  return useMemo(
    () =>
      (job.groups ?? []).flatMap((g) => {
        const f = groupFrame(job, g, measured, DEFAULT_NODE_SIZE);
        if (!f) return [];
        return [
          {
            id: `${GROUP_PREFIX}${g.id}`,
            type: 'wgroup' as const,
            position: { x: f.x, y: f.y },
            data: { group: g },
            width: f.width,
            height: f.height,
            draggable: false,
            selectable: false,
            focusable: false,
            zIndex: -1,
            className: 'wgroup-node',
          },
        ];
      }),
    [job, measured],
  );
}

export function useNoteNodes(): NoteFlowNode[] {
  const notes = useDoc((s) => s.job.notes);
  const selected = useUi((s) => s.selectedNote);
  return useMemo(
    () =>
      (notes ?? []).map((n) => ({
        id: `${NOTE_PREFIX}${n.id}`,
        type: 'note' as const,
        position: n.position,
        data: { note: n },
        width: n.width ?? NOTE_SIZE.width,
        height: n.height ?? NOTE_SIZE.height,
        dragHandle: '.wnote__bar',
        selected: selected === n.id,
        zIndex: 5,
      })),
    [notes, selected],
  );
}
