/**
 * What a preview says about one node, in the figures the canvas badge and the tables show: rows
 * out (for a sink: rows it would write), late and bad records, and which nodes a failed preview
 * names. Plain TypeScript over the host's result, no React.
 */
import type { JobDocument, JobProblem } from '../../../engine/graph/types.ts';
import type { NodePreview } from './previewStore.ts';

export interface NodeFigures {
  /** Rows on its main output; for a sink, the rows it would have written. */
  rows: number;
  sink: boolean;
  /** Late records: sent to its `late` port, or dropped and counted. */
  late: number;
  /** Records that did not parse (skipped or sent as dead letters). */
  bad: number;
}

/** `sink`: the node's type has no outputs (it would write what it receives). */
export function nodeFigures(p: NodePreview, sink: boolean): NodeFigures {
  const main = Object.entries(p.out)
    .filter(([port]) => port !== 'late' && port !== 'bad')
    .reduce((n, [, o]) => n + o.count, 0);
  return {
    rows: sink ? p.rowsIn : main,
    sink,
    late: p.lateRecords + (p.out.late?.count ?? 0),
    bad: Math.max(p.badRecords.length, p.out.bad?.count ?? 0),
  };
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * The nodes a failed preview is about, with the message for each: the host's job problems carry
 * their node (or `nodes[i]` in their path); a runtime failure names `nodes[i].config...` (an
 * expression that failed on a value) or a source's file (a record that did not parse).
 */
export function failedNodes(job: JobDocument, error: string, problems: readonly JobProblem[]): Map<string, string> {
  const out = new Map<string, string>();
  const byIndex = (path: string) => {
    const m = /^nodes\[(\d+)\]/.exec(path);
    return m ? job.nodes[Number(m[1])]?.id : undefined;
  };
  for (const p of problems) {
    const id = p.nodeId ?? byIndex(p.path);
    if (id && !out.has(id)) out.set(id, p.message);
  }
  if (problems.length === 0) {
    const id =
      byIndex(error) ??
      job.nodes.find((n) => {
        const path = (n.config as { path?: unknown } | undefined)?.path;
        return typeof path === 'string' && path !== '' && error.includes(path);
      })?.id;
    if (id) out.set(id, withoutPath(error));
  }
  return out;
}

/** `nodes[1].config.select: CAST(...) failed` reads `CAST(...) failed` once the node is named. */
export function withoutPath(message: string): string {
  return message.replace(/^nodes\[\d+\](\.[\w.[\]]+)?:\s*/, '');
}

/** The config key a `nodes[i].config.KEY: ...` message names, if any. */
export function pathField(message: string): string | null {
  return /^nodes\[\d+\]\.config\.([\w.]+)/.exec(message)?.[1] ?? null;
}
