/**
 * The designer's preview run and record trace (issue 26, "Debugging beyond the anchors"): what the
 * host's `previewRun` gave for the open document, and the trace of one sampled record through it.
 *
 * Rules:
 * - Fed only by previewActions.ts; never by node data, never written into the document.
 * - A preview belongs to the document it ran on: loading another document (New, Open, an example)
 *   clears it. Edits keep it, marked stale, so the user sees what the last preview said.
 * - A trace belongs to its preview: a new preview or clearing the preview clears the trace.
 */
import { createStore, useStore } from 'zustand';
import type { JobDocument, JobProblem } from '../../../engine/graph/types.ts';
import type { MethodResult } from '../../../engine/host/common/api.ts';
import { docStore } from '../state.ts';

export const DEFAULT_PREVIEW_RECORDS = 100;

export type PreviewResult = MethodResult<'previewRun'>;
export type NodePreview = PreviewResult['nodes'][string];
export type PreviewRow = NodePreview['out'][string]['rows'][number];
export type TraceResult = MethodResult<'traceRecord'>;

export interface TraceState {
  source: string;
  index: number;
  status: 'running' | 'done' | 'error';
  result: TraceResult | null;
  error: string | null;
}

export interface PreviewState {
  status: 'idle' | 'running' | 'done' | 'error';
  /** Records read from each source, as the user set it. */
  records: number;
  result: PreviewResult | null;
  /** The failure in words, and the job problems the host named (each on its node). */
  error: string | null;
  problems: JobProblem[];
  /** The document the shown preview ran on. */
  job: JobDocument | null;
  /** The pipeline changed since (a node's config, a node or edge added or removed); moves do not count. */
  stale: boolean;
  /** Click to rows shown, measured in the page (the host's own time is `result.elapsedMs`). */
  roundTripMs: number | null;
  trace: TraceState | null;
  /** Previews shown so far (tests wait for the next one). */
  seq: number;
}

const initial = (records = DEFAULT_PREVIEW_RECORDS): PreviewState => ({
  status: 'idle',
  records,
  result: null,
  error: null,
  problems: [],
  job: null,
  stale: false,
  roundTripMs: null,
  trace: null,
  seq: 0,
});

export const previewStore = createStore<PreviewState>()(() => initial());

export function usePreview<T>(selector: (s: PreviewState) => T): T {
  return useStore(previewStore, selector);
}

/** Forget the preview (and its trace); the sample size the user chose stays. */
export function resetPreview(): void {
  previewStore.setState((s) => ({ ...initial(s.records), seq: s.seq }));
}

export function clearTrace(): void {
  previewStore.setState({ trace: null });
}

/** Whether `now` runs differently from `then`: edits count, moving nodes does not. */
export function pipelineChanged(then: JobDocument, now: JobDocument): boolean {
  if (then === now) return false;
  if (then.edges !== now.edges || then.settings !== now.settings || then.nodes.length !== now.nodes.length) return true;
  return then.nodes.some((n, i) => {
    const m = now.nodes[i];
    return n.id !== m.id || n.type !== m.type || n.config !== m.config || n.parallelism !== m.parallelism;
  });
}

// Another document loaded: its nodes are not the ones the preview ran. An edit marks it stale.
let version = docStore.getState().docVersion;
docStore.subscribe((s) => {
  if (s.docVersion !== version) {
    version = s.docVersion;
    resetPreview();
    return;
  }
  const p = previewStore.getState();
  if (p.job && !p.stale && pipelineChanged(p.job, s.job)) previewStore.setState({ stale: true });
});

/** Node ids on the traced record's path: its source and every node whose rows it changed. */
export function tracedNodes(t: TraceState | null): ReadonlySet<string> | null {
  if (!t?.result?.record) return null;
  return new Set([t.source, ...Object.keys(t.result.nodes)]);
}

/** While a record is traced: 'on' for an edge on its path, 'off' for the rest; null otherwise. */
export function useTraceEdge(from: string, to: string): 'on' | 'off' | null {
  return useStore(previewStore, (s) => {
    const on = tracedNodes(s.trace);
    if (!on) return null;
    return on.has(from) && on.has(to) ? 'on' : 'off';
  });
}
