/**
 * Static column types through a job's graph, so that expressions are typed as Flink types them:
 * a source's declared `columns` (Flink SQL types), a generator's fixed fields, a map's computed
 * columns, a window's keys and aggregates. A DOUBLE column then divides as a double even for the
 * value 4, and a DECIMAL(p, s) column computes exactly. Columns nobody declares stay untyped and
 * are typed by their values (engine/sql/arithmetic.ts); docs/sql-semantics.md says where that
 * differs from Flink, which types a column once for the whole table.
 */
import type { NormalizedJob } from './types.ts';
import { NEXMARK_COLUMNS, isNexmarkPort } from './nexmark.ts';
import { definitionOf } from './node-types.ts';
import { columnTypeOfFlinkType, type ColumnTypeMap } from '../nodes/column-types.ts';

// Node types state their typed-column rule in their definitions (`columnTypes`).
export { columnTypeOfFlinkType, type ColumnTypeMap } from '../nodes/column-types.ts';

/**
 * The types of the columns a node receives (from all its inputs: a column typed alike in every
 * input keeps its type). Never throws: a node whose config does not compile gives no types, and
 * validation reports the config error itself.
 */
export interface ColumnTypeOptions {
  /**
   * Flink SQL types of an undeclared file source's columns, from a sample of its data (the runtime
   * passes engine/connectors/sample-columns.ts; the browser has no files and passes nothing).
   */
  sampled?: (node: NormalizedJob['nodes'][number]) => Record<string, string> | undefined;
}

export function inputColumnTypes(job: NormalizedJob, nodeId: string, opts: ColumnTypeOptions = {}): ColumnTypeMap {
  const memo = new Map<string, ColumnTypeMap>();
  return mergeInputs(job, nodeId, memo, new Set(), opts);
}

function mergeInputs(
  job: NormalizedJob,
  nodeId: string,
  memo: Map<string, ColumnTypeMap>,
  visiting: Set<string>,
  opts: ColumnTypeOptions,
): ColumnTypeMap {
  const inputs = job.edges
    .filter((e) => e.to === nodeId)
    .map((e) =>
      e.fromPort === 'late'
        ? mergeInputs(job, e.from, memo, visiting, opts)
        : isNexmarkPort(e.fromPort)
          ? new Map(NEXMARK_COLUMNS[e.fromPort].map(([name, t]) => [name, columnTypeOfFlinkType(t)]))
          : outputTypes(job, e.from, memo, visiting, opts),
    );
  if (inputs.length === 0) return new Map();
  const out = new Map(inputs[0]);
  for (const other of inputs.slice(1)) {
    for (const [name, t] of out) {
      const o = other.get(name);
      if (!o || o.type !== t.type || o.scale !== t.scale || o.precision !== t.precision) out.delete(name);
    }
  }
  return out;
}

function outputTypes(
  job: NormalizedJob,
  nodeId: string,
  memo: Map<string, ColumnTypeMap>,
  visiting: Set<string>,
  opts: ColumnTypeOptions,
): ColumnTypeMap {
  const known = memo.get(nodeId);
  if (known) return known;
  if (visiting.has(nodeId)) return new Map(); // a cycle: validation reports it
  visiting.add(nodeId);
  const node = job.nodes.find((n) => n.id === nodeId);
  let out: ColumnTypeMap = new Map();
  try {
    if (node) out = computeOutput(node, () => mergeInputs(job, nodeId, memo, visiting, opts), opts);
  } catch {
    out = new Map();
  }
  visiting.delete(nodeId);
  memo.set(nodeId, out);
  return out;
}

function computeOutput(
  node: NormalizedJob['nodes'][number],
  input: () => ColumnTypeMap,
  opts: ColumnTypeOptions,
): ColumnTypeMap {
  const rule = definitionOf(node).columnTypes;
  return rule ? rule(node.config, { input, sampled: () => opts.sampled?.(node) }) : new Map();
}
