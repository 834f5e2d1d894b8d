/**
 * The open document: the job (through its undo history), its file path, the selection and its
 * live problems. A vanilla zustand store (no React) so it is unit-testable; components subscribe
 * with selectors (`useDoc(s => s.job.nodes)`) and re-render only for what they read.
 *
 * Rules:
 * - Every change of the job goes through `commit` (one undo step) or, during a drag, `preview`
 *   followed by `commitDrag`; nothing else writes `history`.
 * - `job` is always `history.present`; `dirty` is derived as `job !== saved`, so undoing back to
 *   the saved version clears the dirty marker.
 * - Live metrics never enter this store (they live in stores/metricsStore.ts).
 */
import { createStore } from 'zustand/vanilla';
import type { JobDocument, JobEdge } from '../../../engine/graph/types.ts';
import { createHistory, record, undo, redo, replacePresent, type HistoryState } from './history.ts';
import { computeProblems, type ProblemIndex } from './problems.ts';
import { edgeKey, emptyJob } from './ops.ts';

export interface DocState {
  history: HistoryState<JobDocument>;
  job: JobDocument;
  saved: JobDocument;
  path: string | null;
  /** Increments when another document is loaded (the canvas fits the view then). */
  docVersion: number;
  selectedNodes: ReadonlySet<string>;
  selectedEdges: ReadonlySet<string>;
  problems: ProblemIndex;
  dragStart: JobDocument | null;

  commit(
    label: string,
    edit: (job: JobDocument) => JobDocument,
    opts?: { coalesceKey?: string; select?: string[] },
  ): void;
  preview(edit: (job: JobDocument) => JobDocument): void;
  commitDrag(label: string): void;
  undo(): void;
  redo(): void;
  load(job: JobDocument, path: string | null, opts?: { dirty?: boolean }): void;
  markSaved(path: string, job?: JobDocument): void;
  select(nodes: Iterable<string>, edges?: Iterable<string>): void;
  selectAll(): void;
  /** Validates the document again: what the validator knows changed (a source's sampled columns). */
  revalidate(): void;
}

const EMPTY: ReadonlySet<string> = new Set();

export type DocStore = ReturnType<typeof createDocStore>;

export function createDocStore(initial: JobDocument = emptyJob()) {
  return createStore<DocState>()((set, get) => {
    const afterChange = (history: HistoryState<JobDocument>, extra: Partial<DocState> = {}) => {
      const job = history.present;
      const s = get();
      // Drop selected ids that no longer exist (after delete or undo of an add).
      const ids = new Set(job.nodes.map((n) => n.id));
      const eks = new Set(job.edges.map(edgeKey));
      const selNodes = extra.selectedNodes ?? s.selectedNodes;
      const selEdges = extra.selectedEdges ?? s.selectedEdges;
      const keptN = [...selNodes].filter((id) => ids.has(id));
      const keptE = [...selEdges].filter((k) => eks.has(k));
      set({
        ...extra,
        history,
        job,
        problems: computeProblems(job, s.path),
        selectedNodes: keptN.length === selNodes.size ? selNodes : new Set(keptN),
        selectedEdges: keptE.length === selEdges.size ? selEdges : new Set(keptE),
      });
    };

    return {
      history: createHistory(initial),
      job: initial,
      saved: initial,
      path: null,
      docVersion: 0,
      selectedNodes: EMPTY,
      selectedEdges: EMPTY,
      problems: computeProblems(initial),
      dragStart: null,

      commit(label, edit, opts = {}) {
        const s = get();
        const next = edit(s.job);
        if (next === s.job) return;
        const h = record(s.history, next, label, { coalesceKey: opts.coalesceKey });
        afterChange(h, opts.select ? { selectedNodes: new Set(opts.select), selectedEdges: EMPTY } : {});
      },

      preview(edit) {
        const s = get();
        const next = edit(s.job);
        if (next === s.job) return;
        // Positions only: problems do not change, so validation is skipped on every frame.
        set({ dragStart: s.dragStart ?? s.job, history: replacePresent(s.history, next), job: next });
      },

      commitDrag(label) {
        const s = get();
        if (!s.dragStart) return;
        const h = record({ ...s.history, present: s.dragStart }, s.job, label);
        set({ dragStart: null, history: h, job: h.present });
      },

      undo() {
        const s = get();
        if (s.dragStart) return;
        afterChange(undo(s.history));
      },
      redo() {
        const s = get();
        if (s.dragStart) return;
        afterChange(redo(s.history));
      },

      load(job, path, opts = {}) {
        set({
          history: createHistory(job),
          job,
          path,
          saved: opts.dirty ? emptyJob('') : job,
          docVersion: get().docVersion + 1,
          selectedNodes: EMPTY,
          selectedEdges: EMPTY,
          problems: computeProblems(job, path),
          dragStart: null,
        });
      },

      markSaved(path, job) {
        set({ path, saved: job ?? get().job });
      },

      revalidate() {
        const { job, path } = get();
        set({ problems: computeProblems(job, path) });
      },

      select(nodes, edges = []) {
        set({ selectedNodes: new Set(nodes), selectedEdges: new Set(edges) });
      },
      selectAll() {
        const { job } = get();
        set({ selectedNodes: new Set(job.nodes.map((n) => n.id)), selectedEdges: new Set(job.edges.map(edgeKey)) });
      },
    };
  });
}

export function isDirty(s: Pick<DocState, 'job' | 'saved'>): boolean {
  return s.job !== s.saved;
}

export function edgeOfKey(job: JobDocument, key: string): JobEdge | undefined {
  return job.edges.find((e) => edgeKey(e) === key);
}
