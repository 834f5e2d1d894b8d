/**
 * Every keyboard shortcut in one table: the handler and the help overlay both read it, so the
 * overlay can never list a shortcut that does not exist. `mod` is Ctrl (Cmd on macOS).
 */
import { docStore } from '../state.ts';
import { openDialog, uiStore } from '../ui/uiStore.ts';
import { newDocument, openDocument, save, saveAs } from '../documents/actions.ts';
import { runOrStop } from '../run/runActions.ts';
import { runPreview } from '../debug/previewActions.ts';
import {
  addNoteInView,
  autoLayout,
  deleteSelection,
  duplicateSelection,
  groupSelection,
  nudgeSelection,
  toggleMinimap,
  toggleSnap,
  zoomToFit,
} from './commands.ts';

export interface Shortcut {
  keys: string[];
  label: string;
  group: 'Edit' | 'View' | 'Document' | 'Run';
  /** Matches a key event (already known not to come from a text field). */
  match: (e: KeyboardEvent) => boolean;
  run: () => void;
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;
const key = (e: KeyboardEvent, k: string) => e.key.toLowerCase() === k;

export const SHORTCUTS: Shortcut[] = [
  {
    keys: ['Delete', 'Backspace'],
    label: 'Delete selection',
    group: 'Edit',
    match: (e) => e.key === 'Delete' || e.key === 'Backspace',
    run: deleteSelection,
  },
  {
    keys: ['mod+Z'],
    label: 'Undo',
    group: 'Edit',
    match: (e) => mod(e) && !e.shiftKey && key(e, 'z'),
    run: () => docStore.getState().undo(),
  },
  {
    keys: ['mod+Shift+Z', 'mod+Y'],
    label: 'Redo',
    group: 'Edit',
    match: (e) => mod(e) && ((e.shiftKey && key(e, 'z')) || key(e, 'y')),
    run: () => docStore.getState().redo(),
  },
  {
    keys: ['mod+C', 'mod+X', 'mod+V'],
    label: 'Copy, cut, paste (JSON on the clipboard)',
    group: 'Edit',
    match: () => false,
    run: () => {},
  },
  {
    keys: ['mod+D'],
    label: 'Duplicate selection',
    group: 'Edit',
    match: (e) => mod(e) && key(e, 'd'),
    run: duplicateSelection,
  },
  {
    keys: ['mod+A'],
    label: 'Select all',
    group: 'Edit',
    match: (e) => mod(e) && key(e, 'a'),
    run: () => docStore.getState().selectAll(),
  },
  {
    keys: ['Escape'],
    label: 'Clear selection, close overlays',
    group: 'Edit',
    match: (e) => e.key === 'Escape',
    run: () => {
      uiStore.setState({ dialog: null, quickAdd: null, connectFrom: null });
      docStore.getState().select([]);
    },
  },
  {
    keys: ['Arrows'],
    label: 'Nudge selection (Shift: 10x)',
    group: 'Edit',
    match: (e) => e.key.startsWith('Arrow'),
    run: () => {},
  },
  {
    keys: ['Space', 'A'],
    label: 'Add a node (search)',
    group: 'Edit',
    match: (e) => !mod(e) && (e.key === ' ' || key(e, 'a')),
    run: () => {
      const el = document.querySelector('.canvas')?.getBoundingClientRect();
      const screen = { x: (el?.left ?? 0) + (el?.width ?? 600) / 2, y: (el?.top ?? 0) + (el?.height ?? 400) / 3 };
      uiStore.setState({ quickAdd: { screen, flow: { x: NaN, y: NaN } } });
    },
  },
  {
    keys: ['C'],
    label: "Connect the selected node's output to a node or a new one (arrows, Enter)",
    group: 'Edit',
    match: (e) => !mod(e) && !e.altKey && key(e, 'c'),
    run: () => {
      const sel = docStore.getState().selectedNodes;
      if (sel.size === 1) uiStore.setState({ connectFrom: [...sel][0] });
    },
  },
  {
    keys: ['N'],
    label: 'Add a sticky note',
    group: 'Edit',
    match: (e) => !mod(e) && !e.altKey && key(e, 'n'),
    run: addNoteInView,
  },
  {
    keys: ['mod+G'],
    label: 'Group the selected nodes (a labelled frame)',
    group: 'Edit',
    match: (e) => mod(e) && key(e, 'g'),
    run: groupSelection,
  },
  {
    keys: ['Tab', 'Enter'],
    label: 'Focus the next node; Enter selects it',
    group: 'Edit',
    match: () => false,
    run: () => {},
  },
  { keys: ['Shift+F', 'F'], label: 'Zoom to fit', group: 'View', match: (e) => !mod(e) && key(e, 'f'), run: zoomToFit },
  {
    keys: ['L'],
    label: 'Auto-layout',
    group: 'View',
    match: (e) => !mod(e) && key(e, 'l'),
    run: () => {
      void autoLayout();
    },
  },
  { keys: ['G'], label: 'Toggle snap to grid', group: 'View', match: (e) => !mod(e) && key(e, 'g'), run: toggleSnap },
  { keys: ['M'], label: 'Toggle minimap', group: 'View', match: (e) => !mod(e) && key(e, 'm'), run: toggleMinimap },
  { keys: ['?'], label: 'This help', group: 'View', match: (e) => e.key === '?', run: () => openDialog('help') },
  {
    keys: ['Alt+N'],
    label: 'New pipeline',
    group: 'Document',
    match: (e) => e.altKey && key(e, 'n'),
    run: newDocument,
  },
  {
    keys: ['mod+O'],
    label: 'Open',
    group: 'Document',
    match: (e) => mod(e) && key(e, 'o'),
    run: () => {
      void openDocument();
    },
  },
  {
    keys: ['mod+S'],
    label: 'Save',
    group: 'Document',
    match: (e) => mod(e) && !e.shiftKey && key(e, 's'),
    run: () => {
      void save();
    },
  },
  {
    keys: ['mod+Shift+S'],
    label: 'Save as',
    group: 'Document',
    match: (e) => mod(e) && e.shiftKey && key(e, 's'),
    run: () => {
      void saveAs();
    },
  },
  {
    keys: ['Alt+E'],
    label: 'Examples',
    group: 'Document',
    match: (e) => e.altKey && key(e, 'e'),
    run: () => openDialog('examples'),
  },
  {
    keys: ['mod+Shift+E'],
    label: 'Export (JSON or Flink SQL)',
    group: 'Document',
    match: (e) => mod(e) && e.shiftKey && key(e, 'e'),
    run: () => openDialog('export'),
  },
  {
    keys: ['mod+Enter'],
    label: 'Run / stop',
    group: 'Run',
    match: (e) => mod(e) && e.key === 'Enter',
    run: () => {
      void runOrStop();
    },
  },
  {
    keys: ['P'],
    label: "Preview: each node's rows over a sample, sinks off",
    group: 'Run',
    match: (e) => !mod(e) && !e.altKey && key(e, 'p'),
    run: () => {
      void runPreview();
    },
  },
];

export function isTextTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable;
}

export function handleKey(e: KeyboardEvent): void {
  const text = isTextTarget(e.target);
  // Inspector fields write every keystroke into the document (coalesced per field), so undo there
  // is the document's undo: the field shows the restored value. Elsewhere (search boxes, dialogs)
  // the browser's own text undo applies.
  const inInspector = text && !!(e.target as HTMLElement).closest?.('.inspector');
  const undoKey = mod(e) && (key(e, 'z') || key(e, 'y'));
  // In text fields only the document shortcuts apply (mod+S while typing must still save).
  if (text && !(mod(e) && (key(e, 's') || key(e, 'o') || e.key === 'Enter')) && !(inInspector && undoKey)) return;
  if (uiStore.getState().dialog && e.key !== 'Escape' && !text) return;
  if (e.key.startsWith('Arrow') && !mod(e)) {
    const step = e.shiftKey ? 160 : 16;
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (d && docStore.getState().selectedNodes.size) {
      e.preventDefault();
      nudgeSelection(d[0], d[1]);
    }
    return;
  }
  for (const s of SHORTCUTS) {
    if (s.match(e)) {
      e.preventDefault();
      s.run();
      return;
    }
  }
}
