/**
 * The renderer's stores, one per concern, each read through selectors:
 * - doc: the open document with undo history, selection and problems (model/docStore.ts)
 * - ui: panels, overlays, canvas options (ui/uiStore.ts)
 * - run: the current run's status (stores/runStore.ts)
 * - metrics: high-frequency live numbers, kept apart from node data (stores/metricsStore.ts)
 */
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createDocStore, type DocState } from './model/docStore.ts';

export const docStore = createDocStore();

export function useDoc<T>(selector: (s: DocState) => T): T {
  return useStore(docStore, selector);
}

/** For selectors that build a new array/object: re-render only when its members change. */
export function useDocShallow<T>(selector: (s: DocState) => T): T {
  return useStore(docStore, useShallow(selector));
}
