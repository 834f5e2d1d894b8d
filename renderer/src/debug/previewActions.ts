/**
 * Preview the open document (even unsaved) over the first N records of each source with sinks off,
 * and trace one record of that sample. Both go through the host API (`previewRun`, `traceRecord`);
 * failures are kept in words (HostError's message and job problems), never as a stack.
 */
import { docStore } from '../state.ts';
import { host } from '../host.ts';
import { setOpen, setTab } from '../stores/liveStore.ts';
import { pipelineChanged, previewStore } from './previewStore.ts';
import type { JobProblem } from '../../../engine/graph/types.ts';

function failure(e: unknown): { error: string; problems: JobProblem[] } {
  const m = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
  const problems = (e as { problems?: JobProblem[] })?.problems;
  return { error: m, problems: Array.isArray(problems) ? problems : [] };
}

/** Runs a preview of the document as it is now and shows it in the live panel's Preview tab. */
export async function runPreview(): Promise<void> {
  const { job, path, docVersion } = docStore.getState();
  const { records, status } = previewStore.getState();
  if (status === 'running') return;
  setOpen(true);
  setTab('preview');
  previewStore.setState({ status: 'running', error: null, problems: [], trace: null });
  const started = performance.now();
  try {
    const result = await host().previewRun({ job, records, ...(path ? { path } : {}) });
    // A document loaded meanwhile cleared the preview: this answer belongs to the old one.
    if (docStore.getState().docVersion !== docVersion) return;
    previewStore.setState((s) => ({
      seq: s.seq + 1,
      status: 'done',
      result,
      job,
      stale: pipelineChanged(job, docStore.getState().job),
      roundTripMs: Math.round(performance.now() - started),
    }));
  } catch (e) {
    if (docStore.getState().docVersion !== docVersion) return;
    previewStore.setState((s) => ({
      seq: s.seq + 1,
      status: 'error',
      result: null,
      job,
      stale: false,
      roundTripMs: null,
      ...failure(e),
    }));
  }
}

export function setPreviewRecords(n: number): void {
  if (Number.isInteger(n) && n >= 1 && n <= 10_000) previewStore.setState({ records: n });
}

/** Traces the `index`-th record of source `source` in the preview's sample, node by node. */
export async function traceRecordAt(source: string, index: number): Promise<void> {
  const { job, records } = previewStore.getState();
  if (!job) return;
  const path = docStore.getState().path;
  previewStore.setState({ trace: { source, index, status: 'running', result: null, error: null } });
  const current = () => {
    const t = previewStore.getState().trace;
    return t && t.source === source && t.index === index;
  };
  try {
    const result = await host().traceRecord({ job, records, target: { source, index }, ...(path ? { path } : {}) });
    if (current()) previewStore.setState({ trace: { source, index, status: 'done', result, error: null } });
  } catch (e) {
    if (current())
      previewStore.setState({ trace: { source, index, status: 'error', result: null, error: failure(e).error } });
  }
}
