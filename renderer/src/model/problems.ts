/**
 * Problems of the document on screen, from the same validator `weir validate` uses, grouped per
 * node so a node can be outlined with its messages. Problems without a node id (settings, edges,
 * the job name) are listed in the status bar.
 */
import type { JobDocument, JobProblem } from '../../../engine/graph/types.ts';
import { validateJob } from './validator.ts';

export interface ProblemIndex {
  all: JobProblem[];
  byNode: ReadonlyMap<string, JobProblem[]>;
  /** Problems under `settings` (shown in the job settings inspector). */
  settings: JobProblem[];
  other: JobProblem[];
}

export const NO_PROBLEMS: ProblemIndex = { all: [], byNode: new Map(), settings: [], other: [] };

const NODE_PATH = /^nodes\[(\d+)\]/;

export function indexProblems(job: JobDocument, problems: JobProblem[]): ProblemIndex {
  if (problems.length === 0) return NO_PROBLEMS;
  const byNode = new Map<string, JobProblem[]>();
  const settings: JobProblem[] = [];
  const other: JobProblem[] = [];
  for (const p of problems) {
    let id = p.nodeId;
    if (!id) {
      const m = NODE_PATH.exec(p.path);
      if (m) id = job.nodes[Number(m[1])]?.id;
    }
    if (id) {
      const l = byNode.get(id);
      if (l) l.push(p);
      else byNode.set(id, [p]);
    } else if (p.path.startsWith('settings')) settings.push(p);
    else other.push(p);
  }
  return { all: problems, byNode, settings, other };
}

/** `docPath`: the document's path, which sampled source columns belong to (null: unsaved). */
export function computeProblems(job: JobDocument, docPath: string | null = null): ProblemIndex {
  let problems: JobProblem[];
  try {
    problems = validateJob(job, docPath);
  } catch (err) {
    // The validator must never take the designer down; show its failure as a problem instead.
    problems = [{ path: '', message: `validator failed: ${(err as Error).message}` }];
  }
  return indexProblems(job, problems);
}

/** The problems of one node whose path points into a given config field (for inline errors). */
export function fieldProblems(
  job: JobDocument,
  list: JobProblem[] | undefined,
  nodeId: string,
  field: string,
): JobProblem[] {
  if (!list) return [];
  const idx = job.nodes.findIndex((n) => n.id === nodeId);
  const prefix = `nodes[${idx}].config.${field}`;
  return list.filter((p) => p.path === prefix || p.path.startsWith(`${prefix}.`) || p.path.startsWith(`${prefix}[`));
}
