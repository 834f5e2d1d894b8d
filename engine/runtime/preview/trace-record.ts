/**
 * Trace a record: which rows of each node it led to. The sample is previewed twice, with and
 * without the record, and each node's output compared as multisets: rows only in the first run are
 * what the record contributed to (a filter's pass, a window's result that counts it, a join's
 * match), rows only in the second are what it replaced (the window result without it, an
 * aggregate's earlier value). No operator needs to carry lineage, so every node type is traced the
 * same way, stateful ones included; a record that moves the watermark also shows what that moved
 * (records it made late). Sources must give the same sample twice, as files, the generator and
 * Nexmark do.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { OutputPort } from '../../contracts/operator.ts';
import { previewRun, type PreviewOptions, type PreviewResult, type PreviewRow } from './preview-run.ts';

export interface NodeTrace {
  /** Rows the node emitted (or, for a sink, would write) only because of the record. */
  contributed: Array<PreviewRow & { port: OutputPort | 'write' }>;
  /** Rows it emitted only without the record (results the record's arrival replaced). */
  replaced: Array<PreviewRow & { port: OutputPort | 'write' }>;
}

export interface TraceResult {
  /** The traced record, as the source read it; null when the sample does not reach `index`. */
  record: (PreviewRow & { port: OutputPort }) | null;
  /** Nodes the record touched, in job order; a node it did not change is left out. */
  nodes: Record<string, NodeTrace>;
}

export async function traceRecord(
  job: NormalizedJob,
  target: { source: string; index: number },
  opts: Omit<PreviewOptions, 'exclude' | 'keepRows'> = {},
): Promise<TraceResult> {
  // Every row kept: the comparison must see all of them, not the first page.
  const all = { ...opts, keepRows: Number.MAX_SAFE_INTEGER };
  const withIt = await previewRun(job, all);
  const without = await previewRun(job, { ...all, exclude: target });
  if (!without.excluded) return { record: null, nodes: {} };
  const nodes: Record<string, NodeTrace> = {};
  for (const node of job.nodes) {
    const a = outputsOf(withIt, node.id);
    const b = outputsOf(without, node.id);
    const contributed = difference(a, b);
    const replaced = difference(b, a);
    if (contributed.length > 0 || replaced.length > 0) nodes[node.id] = { contributed, replaced };
  }
  return { record: without.excluded, nodes };
}

type Tagged = PreviewRow & { port: OutputPort | 'write' };

function outputsOf(r: PreviewResult, nodeId: string): Tagged[] {
  const p = r.nodes[nodeId];
  const out: Tagged[] = [];
  for (const [port, o] of Object.entries(p.out))
    for (const row of o.rows) out.push({ ...row, port: port as OutputPort });
  for (const row of p.wouldWrite ?? []) out.push({ ...row, port: 'write' });
  return out;
}

const keyOf = (x: Tagged) => JSON.stringify([x.port, x.kind ?? null, x.row]);

/** Rows of `a` not matched one-for-one by a row of `b`. */
function difference(a: Tagged[], b: Tagged[]): Tagged[] {
  const counts = new Map<string, number>();
  for (const x of b) counts.set(keyOf(x), (counts.get(keyOf(x)) ?? 0) + 1);
  const out: Tagged[] = [];
  for (const x of a) {
    const k = keyOf(x);
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else out.push(x);
  }
  return out;
}
