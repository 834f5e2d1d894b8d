/**
 * Canvas gestures bound to the doc store: drag (preview while moving, one undo step on release),
 * selection, connecting ports with the engine's rules (refusal reason shown while dragging),
 * dropping palette items and double-click to add.
 */
import { useCallback, useMemo, type DragEvent, type MouseEvent } from 'react';
import {
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type IsValidConnection,
  type OnConnectEnd,
} from '@xyflow/react';
import type { Position } from '../../../engine/graph/types.ts';
import { docStore } from '../state.ts';
import { moveNodes, addEdge } from '../model/ops.ts';
import { checkConnection } from '../model/connections.ts';
import { isNodeType } from '../model/catalog.ts';
import { uiStore } from '../ui/uiStore.ts';
import { addNodeAt } from './commands.ts';
import { setMeasured } from './measuredStore.ts';
import { GROUP_PREFIX, NOTE_PREFIX } from './AnnotationViews.tsx';
import { noteChanges, type CanvasNode } from './noteChanges.ts';
import { focusNode } from './focusNode.ts';

export const PALETTE_MIME = 'application/x-weir-node-type';

export function useCanvasHandlers() {
  const rf = useReactFlow();

  const onNodesChange = useCallback((changes: NodeChange<CanvasNode>[]) => {
    const moved = new Map<string, Position>();
    let dragEnded = false;
    const sizes: Array<{ id: string; size: { width: number; height: number } }> = [];
    let sel: Set<string> | null = null;
    const s = docStore.getState();
    // Notes are not job nodes: their moves, resizes and selection go to their own handler.
    if (noteChanges(changes.filter((c) => 'id' in c && c.id.startsWith(NOTE_PREFIX)))) {
      changes = changes.filter((c) => !('id' in c && c.id.startsWith(NOTE_PREFIX)));
    }
    for (const c of changes) {
      if ('id' in c && c.id.startsWith(GROUP_PREFIX)) {
        if (c.type === 'dimensions' && c.dimensions) sizes.push({ id: c.id, size: c.dimensions });
        continue;
      }
      if (c.type === 'position') {
        if (c.position) moved.set(c.id, c.position);
        if (c.dragging === false) dragEnded = true;
      } else if (c.type === 'dimensions' && c.dimensions) {
        sizes.push({ id: c.id, size: c.dimensions });
      } else if (c.type === 'select') {
        sel ??= new Set(s.selectedNodes);
        if (c.selected) sel.add(c.id);
        else sel.delete(c.id);
      }
    }
    if (moved.size) docStore.getState().preview((job) => moveNodes(job, moved));
    if (dragEnded) docStore.getState().commitDrag(moved.size > 1 ? `move ${moved.size} nodes` : 'move');
    setMeasured(sizes);
    if (sel) docStore.getState().select(sel, docStore.getState().selectedEdges);
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<Edge>[]) => {
    const s = docStore.getState();
    let sel: Set<string> | null = null;
    for (const c of changes) {
      if (c.type === 'select') {
        sel ??= new Set(s.selectedEdges);
        if (c.selected) sel.add(c.id);
        else sel.delete(c.id);
      }
    }
    if (sel) s.select(s.selectedNodes, sel);
  }, []);

  const isValidConnection: IsValidConnection = useCallback((conn) => {
    const v = checkConnection(docStore.getState().job, {
      from: conn.source,
      to: conn.target,
      fromPort: conn.sourceHandle,
      toPort: conn.targetHandle,
    });
    const hint = v.ok ? null : v.reason;
    if (uiStore.getState().connectionHint !== hint) uiStore.setState({ connectionHint: hint });
    return v.ok;
  }, []);

  const onConnect = useCallback((conn: Connection) => {
    const v = checkConnection(docStore.getState().job, {
      from: conn.source,
      to: conn.target,
      fromPort: conn.sourceHandle,
      toPort: conn.targetHandle,
    });
    if (!v.ok) return;
    docStore.getState().commit('connect', (job) => addEdge(job, v.edge));
    focusNode(v.edge.to);
  }, []);

  const onConnectEnd: OnConnectEnd = useCallback(
    (event, state) => {
      // Keep a refusal visible for a moment after release so the user can read why.
      if (uiStore.getState().connectionHint) setTimeout(() => uiStore.setState({ connectionHint: null }), 1800);
      // Dropped on empty canvas from an output: offer to add a node there, connected (as Node-RED does).
      const handle = state.fromHandle;
      if (state.toNode || state.isValid !== null || !handle || handle.type !== 'source') return;
      const pt = 'changedTouches' in event ? event.changedTouches[0] : event;
      const screen = { x: pt.clientX, y: pt.clientY };
      uiStore.setState({
        quickAdd: {
          screen,
          flow: rf.screenToFlowPosition(screen),
          connectFrom: { nodeId: handle.nodeId, port: handle.id === 'late' || handle.id === 'bad' ? handle.id : 'out' },
        },
      });
    },
    [rf],
  );

  const onDragOver = useCallback((e: DragEvent) => {
    if (e.dataTransfer.types.includes(PALETTE_MIME)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(PALETTE_MIME);
      if (!isNodeType(type)) return;
      e.preventDefault();
      e.stopPropagation();
      const p = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      addNodeAt(type, { x: p.x - 20, y: p.y - 20 });
    },
    [rf],
  );

  const onDoubleClick = useCallback(
    (e: MouseEvent) => {
      const target = e.target as HTMLElement;
      if (!target.classList.contains('react-flow__pane')) return;
      uiStore.setState({
        quickAdd: {
          screen: { x: e.clientX, y: e.clientY },
          flow: rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }),
        },
      });
    },
    [rf],
  );

  return useMemo(
    () => ({
      onNodesChange,
      onEdgesChange,
      isValidConnection,
      onConnect,
      onConnectEnd,
      onDragOver,
      onDrop,
      onDoubleClick,
    }),
    [onNodesChange, onEdgesChange, isValidConnection, onConnect, onConnectEnd, onDragOver, onDrop, onDoubleClick],
  );
}
