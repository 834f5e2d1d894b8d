/**
 * Sticky notes and group frames on the canvas (designer annotations, see model/annotations.ts).
 * Declared at module scope and memoized like JobNodeView. A note is dragged by its bar and
 * resized when selected; its text is edited in place. A group frame lets clicks through to the
 * canvas and nodes; only its label (renamed in place) and its ungroup button take the pointer.
 */
import { memo } from 'react';
import { NodeResizer, type Node, type NodeProps } from '@xyflow/react';
import type { JobGroup, JobNote } from '../../../engine/graph/types.ts';
import { docStore } from '../state.ts';
import { removeGroup, removeNote, setGroupLabel, setNoteText } from '../model/annotations.ts';

export const NOTE_PREFIX = 'note:';
export const GROUP_PREFIX = 'group:';

export type NoteFlowNode = Node<{ note: JobNote }, 'note'>;
export type GroupFlowNode = Node<{ group: JobGroup }, 'wgroup'>;

function NoteViewImpl({ data, selected }: NodeProps<NoteFlowNode>) {
  const { note } = data;
  const commit = (label: string, edit: Parameters<ReturnType<typeof docStore.getState>['commit']>[1], key?: string) =>
    docStore.getState().commit(label, edit, key ? { coalesceKey: key } : {});
  return (
    <div className={`wnote${selected ? ' is-selected' : ''}`} data-testid={`note-${note.id}`}>
      <NodeResizer
        isVisible={selected}
        minWidth={140}
        minHeight={70}
        lineClassName="wnote__resize"
        handleClassName="wnote__handle"
      />
      <div className="wnote__bar" title="Drag to move">
        <span>Note</span>
        <button
          type="button"
          className="wnote__x nodrag"
          title="Delete note"
          data-testid={`note-delete-${note.id}`}
          onClick={() => commit('delete note', (j) => removeNote(j, note.id))}
        >
          ×
        </button>
      </div>
      <textarea
        className="wnote__text nodrag nowheel"
        value={note.text}
        placeholder="Write a note…"
        data-testid={`note-text-${note.id}`}
        spellCheck={false}
        onChange={(e) => commit('edit note', (j) => setNoteText(j, note.id, e.target.value), `note.${note.id}`)}
      />
    </div>
  );
}

function GroupViewImpl({ data }: NodeProps<GroupFlowNode>) {
  const { group } = data;
  return (
    <div className="wgroup" data-testid={`group-${group.id}`} data-members={group.nodes.join(',')}>
      <div className="wgroup__head">
        <input
          className="wgroup__label nodrag"
          value={group.label}
          aria-label="Group label"
          data-testid={`group-label-${group.id}`}
          size={Math.max(6, group.label.length + 1)}
          spellCheck={false}
          onChange={(e) =>
            docStore.getState().commit('rename group', (j) => setGroupLabel(j, group.id, e.target.value), {
              coalesceKey: `group.${group.id}`,
            })
          }
        />
        <button
          type="button"
          className="wgroup__x nodrag"
          title="Ungroup (the nodes stay)"
          data-testid={`group-delete-${group.id}`}
          onClick={() => docStore.getState().commit('ungroup', (j) => removeGroup(j, group.id))}
        >
          ×
        </button>
      </div>
    </div>
  );
}

export const NoteView = memo(NoteViewImpl);
export const GroupView = memo(GroupViewImpl);
