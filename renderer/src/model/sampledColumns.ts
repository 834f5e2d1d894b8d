/**
 * Source columns sampled from the data (EngineHost.sampleSource), so a file source without declared
 * columns still offers its real columns, with types, in every field downstream.
 *
 * Rules:
 * - Every file source with a path is sampled (so a missing file shows on its node), but declared
 *   `columns` always win over sampled ones.
 * - A sample belongs to the node's (document path, data path, format): it is used only while
 *   those are unchanged, and fetched again (debounced) when they change.
 * - Sampling failures are kept as a message (shown in the source's form), never thrown.
 */
import { createStore, useStore } from 'zustand';
import type { EngineHost, SourceColumn } from '../../../engine/host/common/api.ts';
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';
import { fileSource } from '../../../engine/nodes/source-file/definition.ts';

export interface Sampled {
  key: string;
  columns: SourceColumn[];
  message?: string;
  /** The data file does not exist. */
  missing?: boolean;
}

export const sampledStore = createStore<{ byNode: ReadonlyMap<string, Sampled> }>()(() => ({ byNode: new Map() }));

export function useSampled<T>(selector: (s: { byNode: ReadonlyMap<string, Sampled> }) => T): T {
  return useStore(sampledStore, selector);
}

export function sampleKey(node: JobNode, docPath: string | null): string | null {
  if (node.type !== fileSource.type || typeof node.config?.path !== 'string' || !node.config.path) return null;
  return `${docPath ?? ''}|${node.config.path}|${node.config.format}`;
}

/** The sampled columns of a node, when the sample matches its current config. */
export function sampledColumns(node: JobNode, docPath: string | null): Sampled | null {
  const key = sampleKey(node, docPath);
  if (node.type === fileSource.type && node.config?.columns) return null;
  const s = key ? sampledStore.getState().byNode.get(node.id) : undefined;
  return s && s.key === key ? s : null;
}

/** What sampling needs of the document store (model/docStore.ts), without importing it. */
export interface SampledDocument {
  getState(): { job: JobDocument; path: string | null; revalidate(): void };
  subscribe(
    listener: (s: { job: JobDocument; path: string | null }, prev: { job: JobDocument; path: string | null }) => void,
  ): () => void;
}

/**
 * Keep samples in step with the document; returns the unsubscribe function. A sample that arrives
 * re-validates the document: its columns make misspellings downstream errors.
 */
export function startSourceSampling(store: SampledDocument, host: () => EngineHost, delayMs = 400): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const inFlight = new Set<string>();
  const check = () => {
    timer = null;
    const { job, path } = store.getState();
    for (const node of job.nodes) {
      const key = sampleKey(node, path);
      if (!key || inFlight.has(`${node.id}|${key}`) || sampledStore.getState().byNode.get(node.id)?.key === key)
        continue;
      inFlight.add(`${node.id}|${key}`);
      host()
        .sampleSource({ job, nodeId: node.id, ...(path ? { path } : {}) })
        .then(
          (r) =>
            put(node.id, {
              key,
              columns: r.columns,
              ...(r.message ? { message: r.message } : {}),
              ...(r.missing ? { missing: true } : {}),
            }),
          (e: unknown) => put(node.id, { key, columns: [], message: String((e as Error)?.message ?? e) }),
        )
        .finally(() => inFlight.delete(`${node.id}|${key}`));
    }
  };
  const put = (id: string, s: Sampled) => {
    sampledStore.setState((st) => ({ byNode: new Map(st.byNode).set(id, s) }));
    store.getState().revalidate();
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, delayMs);
  };
  schedule();
  const unsub = store.subscribe((s, prev) => {
    if (s.job.nodes !== prev.job.nodes || s.path !== prev.path) schedule();
  });
  return () => {
    unsub();
    if (timer) clearTimeout(timer);
  };
}
