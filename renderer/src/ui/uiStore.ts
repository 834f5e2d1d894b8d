/**
 * View state that is not part of the document: overlays, dialogs, canvas options and notices.
 * Never saved with the job and never part of undo.
 */
import { createStore, useStore } from 'zustand';
import type { OutputPort } from '../model/catalog.ts';

export type Dialog = null | 'open' | 'save-as' | 'examples' | 'help' | 'export' | 'import-flink-sql';

export interface Notice {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

export interface QuickAdd {
  screen: { x: number; y: number };
  flow: { x: number; y: number };
  /** Set when a connection was dropped on empty canvas: the new node gets connected to it. */
  connectFrom?: { nodeId: string; port: OutputPort };
}

export interface UiState {
  dialog: Dialog;
  quickAdd: QuickAdd | null;
  snapToGrid: boolean;
  showMinimap: boolean;
  /** Reason a connection being dragged would be refused (shown next to the cursor). */
  connectionHint: string | null;
  notices: Notice[];
  /** Counter bumped to ask the canvas to fit the view (zoom to fit). */
  fitRequest: number;
  layoutRequest: number;
  /** The host connection as the WebSocket client reports it (Electron is always 'open'). */
  connection: 'connecting' | 'open' | 'reconnecting' | 'closed';
  /** The status bar's problem list is open (also opened when a run is refused for problems). */
  problemsOpen: boolean;
  /** Node whose output the keyboard connect picker (C) is connecting, or null. */
  connectFrom: string | null;
  /** The selected sticky note (notes are not job nodes, so not in the document's selection). */
  selectedNote: string | null;
  /** The canvas edge under the pointer (its schema popover shows), by edge key. */
  hoveredEdge: string | null;
}

export const uiStore = createStore<UiState>()(() => ({
  dialog: null,
  quickAdd: null,
  snapToGrid: true,
  showMinimap: true,
  connectionHint: null,
  notices: [],
  fitRequest: 0,
  layoutRequest: 0,
  connection: 'open',
  problemsOpen: false,
  connectFrom: null,
  selectedNote: null,
  hoveredEdge: null,
}));

export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(uiStore, selector);
}

let noticeId = 0;
export function notify(text: string, kind: Notice['kind'] = 'info'): void {
  const id = ++noticeId;
  uiStore.setState((s) => ({ notices: [...s.notices, { id, kind, text }].slice(-4) }));
  setTimeout(
    () => uiStore.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
    kind === 'error' ? 8000 : 3500,
  );
}

export function openDialog(dialog: Dialog): void {
  uiStore.setState({ dialog });
}
