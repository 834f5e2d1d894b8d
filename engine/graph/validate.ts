/**
 * `validateJob`: schema, then structure, then data checks, then normalization. Problems are
 * `{ path, message, nodeId?, severity }`; a job is valid when no problem is an error (warnings are
 * returned alongside the job). Browser-safe: the designer validates as the user edits.
 */

import type { JobDocument, JobProblem, NormalizedJob } from './types.ts';
import { jobDocumentSchema } from './schema.ts';
import { problemsFromIssues } from './schema-problems.ts';
import { checkGraph } from './check-graph.ts';
import { checkColumns, type NodeColumns } from './check-columns.ts';
import { normalizeJob } from './normalize.ts';
import { parseDuration } from './units.ts';
import { checkRanges } from './check-ranges.ts';
import { checkDeadLetters } from './check-dead-letters.ts';
import type { ExpressionChecker } from './expressions.ts';
import { checkExpression, compileAggregates, compileProjectionDetailed, parseKeyBy, referencedColumns } from '../sql/index.ts';

export type ValidationResult =
  | { ok: true; job: NormalizedJob; problems: JobProblem[] }
  | { ok: false; problems: JobProblem[] };

export interface ValidateOptions {
  /** Folder relative paths resolve against (the job file's folder); copied to `job.baseDir`. */
  baseDir?: string;
  /** Defaults to the real expression compiler in engine/sql. */
  expressions?: ExpressionChecker;
}

/** The real expression compiler as an ExpressionChecker (the designer wraps it in a cache). */
export const sqlExpressionChecker: Required<ExpressionChecker> = {
  checkExpression: (kind, text) => checkExpression(kind, text),
  referencedColumns: (kind, text) => referencedColumns(kind, text),
  outputColumns: (kind, text, input) => {
    if (kind === 'keyBy') return parseKeyBy(text).columns;
    if (kind === 'aggregates') return compileAggregates(text).map((a) => a.alias);
    const p = compileProjectionDetailed(text);
    if (p.columns) return p.columns.map((c) => c.name);
    // `*` passes the input through; explicit columns next to it are added (or replace one).
    if (!input) return null;
    return [...input, ...p.extra.map((c) => c.name).filter((n) => !input.includes(n))];
  },
};

/** Values the schema cannot express: durations that must be positive. */
function checkPositiveDurations(doc: JobDocument, problems: JobProblem[]): void {
  const positive = (path: string, value: number | string | undefined, nodeId?: string) => {
    if (value !== undefined && parseDuration(value) <= 0) {
      problems.push({ path, message: 'must be greater than 0', severity: 'error', ...(nodeId ? { nodeId } : {}) });
    }
  };
  positive('settings.checkpointing.interval', doc.settings?.checkpointing?.interval);
  positive('settings.checkpointing.timeout', doc.settings?.checkpointing?.timeout);
  doc.nodes.forEach((n, i) => {
    if (n.type !== 'window') return;
    const w = n.config.window;
    const p = `nodes[${i}].config.window`;
    if (w.kind === 'session') positive(`${p}.gap`, w.gap, n.id);
    else positive(`${p}.size`, w.size, n.id);
    if (w.kind === 'sliding') positive(`${p}.slide`, w.slide, n.id);
  });
}

export function validateJob(input: unknown, options: ValidateOptions = {}): ValidationResult {
  const parsed = jobDocumentSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: problemsFromIssues(parsed.error.issues, input) };
  const doc = parsed.data as JobDocument;
  const problems: JobProblem[] = [];
  checkPositiveDurations(doc, problems);
  checkRanges(doc, problems);
  checkDeadLetters(doc, problems);
  const idx = checkGraph(doc, problems);
  checkColumns(doc, idx, options.expressions ?? sqlExpressionChecker, problems);
  if (problems.some((p) => p.severity !== 'warning')) return { ok: false, problems };
  return { ok: true, job: normalizeJob(doc, options.baseDir), problems };
}

/**
 * The columns each node emits, as far as they are known before reading data (for column hints in
 * the designer and for exporters). Nodes on a cycle are absent; unknown columns are null.
 * Expects a schema-valid document.
 */
export function nodeColumns(doc: JobDocument, expressions: ExpressionChecker = sqlExpressionChecker): NodeColumns {
  const scratch: JobProblem[] = [];
  return checkColumns(doc, checkGraph(doc, scratch), expressions, scratch);
}

/** One line for people: `orders-per-user: valid (4 nodes, 3 edges, backend fs, checkpoints every 1s)`. */
export { summarizeJob } from './summary.ts';
