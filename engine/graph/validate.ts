/**
 * `validateJob`: schema, then structure, then data checks, then normalization. Problems are
 * `{ path, message, nodeId?, severity }`; a job is valid when no problem is an error (warnings are
 * returned alongside the job). Browser-safe: the designer validates as the user edits.
 */

import type { JobDocument, JobProblem, NormalizedJob } from './types.ts';
import { jobDocumentSchema } from './schema.ts';
import { problemsFromIssues } from './schema-problems.ts';
import { checkGraph } from './check-graph.ts';
import { checkColumns } from './check-columns.ts';
import { normalizeJob } from './normalize.ts';
import { semanticsWarnings } from './semantics-warnings.ts';
import { checkChangelog } from './changelog.ts';
import { parseDuration } from './units.ts';
import { checkRanges } from './check-ranges.ts';
import { checkDeadLetters } from './check-dead-letters.ts';
import { checkNodeConfigs } from './check-nodes.ts';
import type { ExpressionChecker } from './expressions.ts';
import type { ColumnTypeOptions } from './column-types.ts';
import { sqlExpressionChecker } from './node-columns.ts';
import { definitionOf } from './node-types.ts';
import type { ValidationCache } from './validation-cache.ts';
import { checkSinkCatalogs, type SinkCatalogs } from './check-sink-tables.ts';

export type ValidationResult =
  { ok: true; job: NormalizedJob; problems: JobProblem[] } | { ok: false; problems: JobProblem[] };

export interface ValidateOptions {
  /** Folder relative paths resolve against (the job file's folder); copied to `job.baseDir`. */
  baseDir?: string;
  /** Defaults to the real expression compiler in engine/sql. */
  expressions?: ExpressionChecker;
  /**
   * The Flink SQL types (name -> type) of an undeclared file source's columns, from a sample of
   * its data: with it, columns downstream are checked as if declared, and a source it cannot
   * sample gets a warning. The CLI and the host pass engine/connectors/sampled-types.ts, the
   * designer its host's samples.
   */
  sampled?: ColumnTypeOptions['sampled'];
  /**
   * Per-node results kept from earlier validations (validation-cache.ts): the designer passes one
   * so that a keystroke re-checks the edited node and what its change reaches, not the whole job.
   * The result is the same as without it.
   */
  cache?: ValidationCache;
  /**
   * The sink tables' catalogs (node id -> columns and types), read before validation by the Node
   * side (engine/connectors/postgres/sink-catalogs.ts): with them, the columns a sink receives are
   * checked against its table as Flink checks an INSERT INTO. The designer validates without them.
   */
  sinkCatalogs?: SinkCatalogs;
}

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
    for (const [path, value] of definitionOf(n).positiveDurations?.(n.config) ?? []) {
      positive(`nodes[${i}].config.${path}`, value, n.id);
    }
  });
}

/**
 * Problems must not mask each other: when the schema fails on a node's config (an empty filter
 * condition), the graph's own problems (a sink with no input) are still reported, as long as the
 * nodes and edges are well-formed enough to index (string ids, types and edge ends). Problems at a
 * path the schema already reported are not repeated.
 */
function graphProblemsDespiteSchema(input: unknown, schemaProblems: JobProblem[]): JobProblem[] {
  const doc = input as { nodes?: unknown; edges?: unknown; settings?: unknown } | null;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.nodes) || !Array.isArray(doc.edges)) return [];
  const str = (v: unknown) => typeof v === 'string';
  const nodesOk = doc.nodes.every((n) => n && typeof n === 'object' && str(n.id) && str(n.type));
  const edgesOk = doc.edges.every((e) => e && typeof e === 'object' && str(e.from) && str(e.to));
  // A rejected edge or node identity would show up again as its consequences (a missing input).
  const structural = schemaProblems.some(
    (p) =>
      p.path === 'nodes' ||
      p.path === 'edges' ||
      p.path.startsWith('edges[') ||
      /^nodes\[\d+\](\.(id|type))?$/.test(p.path),
  );
  if (!nodesOk || !edgesOk || structural) return [];
  const graph: JobProblem[] = [];
  try {
    const settings = doc.settings && typeof doc.settings === 'object' ? doc.settings : {};
    checkGraph({ ...(doc as JobDocument), settings: settings }, graph);
  } catch {
    return []; // a shape the schema rejected and the graph checks cannot read: the schema's word stands
  }
  const seen = new Set(schemaProblems.map((p) => p.path));
  return graph.filter((p) => !seen.has(p.path));
}

export function validateJob(input: unknown, options: ValidateOptions = {}): ValidationResult {
  const parsed = jobDocumentSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const problems = problemsFromIssues(parsed.error.issues, input);
    return { ok: false, problems: [...problems, ...graphProblemsDespiteSchema(input, problems)] };
  }
  const doc = parsed.data;
  const problems: JobProblem[] = [];
  checkPositiveDurations(doc, problems);
  checkRanges(doc, problems);
  checkDeadLetters(doc, problems);
  const idx = checkGraph(doc, problems);
  const expressions = options.expressions ?? sqlExpressionChecker;
  const columns = checkColumns(doc, idx, expressions, problems, options.sampled, options.cache);
  checkNodeConfigs(doc, columns, problems);
  checkChangelog(idx, problems);
  if (options.sinkCatalogs && idx.acyclic)
    checkSinkCatalogs(doc, options.sinkCatalogs, problems, {
      expressions,
      sampled: options.sampled,
      cache: options.cache,
    });
  if (problems.some((p) => p.severity !== 'warning')) return { ok: false, problems };
  const job = normalizeJob(doc, options.baseDir);
  return { ok: true, job, problems: [...problems, ...semanticsWarnings(job, { cache: options.cache })] };
}

export { nodeColumns, sqlExpressionChecker } from './node-columns.ts';

/** One line for people: `orders-per-user: valid (4 nodes, 3 edges, backend fs, checkpoints every 1s)`. */
export { summarizeJob } from './summary.ts';
