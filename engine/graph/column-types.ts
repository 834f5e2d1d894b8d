/**
 * Static column types through a job's graph, so that expressions are typed as Flink types them:
 * a source's declared `columns` (Flink SQL types), a generator's fixed fields, a map's computed
 * columns, a window's keys and aggregates. A DOUBLE column then divides as a double even for the
 * value 4, and a DECIMAL(p, s) column computes exactly. Columns nobody declares stay untyped and
 * are typed by their values (engine/sql/arithmetic.ts); docs/sql-semantics.md says where that
 * differs from Flink, which types a column once for the whole table.
 */
import type { JobNode, NormalizedJob } from './types.ts';
import { NEXMARK_COLUMNS, isNexmarkPort } from './nexmark.ts';
import { definitionOf } from './node-types.ts';
import { columnTypeOfFlinkType, declaredColumnTypes, type ColumnTypeMap } from '../nodes/column-types.ts';
import { commonType, type StaticType } from '../sql/common-type.ts';
import type { ColumnType } from '../sql/index.ts';
import { configKey, orderedTypesKey, type ValidationCache } from './validation-cache.ts';
import { topoOrder } from './topo-order.ts';

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
  sampled?: (node: JobNode) => Record<string, string> | undefined;
  /** Output types kept from earlier typings of the same document (the designer's, per keystroke). */
  cache?: ValidationCache;
  /**
   * A source's columns (on one port) as another reader declares them, in place of Weir's: the
   * Flink SQL export reads Nexmark's `dateTime` as TIMESTAMP(3) and a file's ISO-8601 TIMESTAMP
   * text as STRING, and the same rules then type everything downstream as Flink will see it.
   */
  sourceTypes?: (nodeId: string, port: string) => Record<string, string> | undefined;
}

/** Input types of any node of one job, each node's output typed once (a chain is typed in linear time). */
export interface ColumnTyper {
  /** A fresh map: the caller may change it. */
  inputOf(nodeId: string): ColumnTypeMap;
  /** The types on one output port of a node (`late` carries its input; `bad` the dead letters). */
  outputOf(nodeId: string, port: string): ColumnTypeMap;
}

/** A file source's dead letters on its `bad` port: file, line, reason, text. */
const DEAD_LETTER_TYPES: ColumnTypeMap = new Map([
  ['file', { type: 'STRING' }],
  ['line', { type: 'BIGINT' }],
  ['reason', { type: 'STRING' }],
  ['text', { type: 'STRING' }],
]);

export function inputColumnTypes(job: NormalizedJob, nodeId: string, opts: ColumnTypeOptions = {}): ColumnTypeMap {
  return columnTyper(job, opts).inputOf(nodeId);
}

/**
 * A typer for `job`, which must not change while it is used. Nodes and incoming edges are indexed
 * once and every output typed once: typing each of a 5,000-node chain's operators with its own
 * walk up the chain (and a search of every edge per step) was quadratic, minutes for one job.
 */
export function columnTyper(job: NormalizedJob, opts: ColumnTypeOptions = {}): ColumnTyper {
  const nodes = new Map(job.nodes.map((n) => [n.id, n]));
  const incoming = new Map<string, NormalizedJob['edges']>();
  for (const e of job.edges) {
    const list = incoming.get(e.to);
    if (list) list.push(e);
    else incoming.set(e.to, [e]);
  }
  const memo = new Map<string, ColumnTypeMap>();
  const visiting = new Set<string>();
  // A cache key is built from the inputs' types before the node is typed, which walks a cycle in
  // another order than typing does and so types its nodes differently; a cyclic job is invalid
  // (validation reports the cycle) and is typed from scratch, as without a cache.
  const cache = opts.cache && topoOrder(nodes.keys(), job.edges).length === nodes.size ? opts.cache : undefined;

  const portTypes = (from: string, port: string | undefined): ColumnTypeMap => {
    const given = port === 'late' || port === 'bad' ? undefined : opts.sourceTypes?.(from, port ?? 'out');
    return given ? declaredColumnTypes(given) : ownPortTypes(from, port);
  };
  const ownPortTypes = (from: string, port: string | undefined): ColumnTypeMap =>
    port === 'late'
      ? mergeInputs(from)
      : port === 'bad'
        ? DEAD_LETTER_TYPES
        : isNexmarkPort(port)
          ? new Map(NEXMARK_COLUMNS[port].map(([name, t]) => [name, columnTypeOfFlinkType(t)]))
          : outputTypes(from);

  const merging = new Set<string>();
  const mergeInputs = (nodeId: string): ColumnTypeMap => {
    // A `late` port carries its node's input: a late edge back into the node (or through a cycle)
    // would merge itself without end. Validation reports the cycle; its types are unknown here.
    if (merging.has(nodeId)) return new Map();
    merging.add(nodeId);
    let inputs: ColumnTypeMap[];
    try {
      inputs = (incoming.get(nodeId) ?? []).map((e) => portTypes(e.from, e.fromPort));
    } finally {
      merging.delete(nodeId);
    }
    if (inputs.length === 0) return new Map();
    if (inputs.length === 1) return new Map(inputs[0]);
    // As Flink types a UNION ALL: each column's least restrictive type over the inputs (a BIGINT
    // and a DOUBLE give a DOUBLE); an input without the column gives NULL there, which meets any
    // type; types that do not meet leave the column untyped (the checker reports no guess).
    const out: ColumnTypeMap = new Map();
    const names = new Set(inputs.flatMap((m) => [...m.keys()]));
    for (const name of names) {
      const ts = inputs.flatMap((m) => (m.has(name) ? [m.get(name)!] : []));
      const same = ts.every((t) => t.type === ts[0].type && t.scale === ts[0].scale && t.precision === ts[0].precision);
      const common = same ? ts[0] : commonType(ts);
      if (common && common.type !== 'UNKNOWN') out.set(name, toColumnType(common));
    }
    return out;
  };

  const outputTypes = (nodeId: string): ColumnTypeMap => {
    const known = memo.get(nodeId);
    if (known) return known;
    if (visiting.has(nodeId)) return new Map(); // a cycle: validation reports it
    visiting.add(nodeId);
    const node = nodes.get(nodeId);
    let out: ColumnTypeMap = new Map();
    let key: string | null = null;
    try {
      if (node && cache) key = typesCacheKey(node, incoming.get(nodeId) ?? [], portTypes, opts);
    } catch {
      key = null; // a `late` edge in a cycle recurses without end: typed (to nothing) below, never cached
    }
    const hit = key === null ? undefined : cache!.types.get(key);
    if (hit) {
      visiting.delete(nodeId);
      memo.set(nodeId, hit as ColumnTypeMap);
      return hit as ColumnTypeMap;
    }
    try {
      if (node)
        out = computeOutput(
          node,
          () => mergeInputs(nodeId),
          (port) => {
            const e = (incoming.get(nodeId) ?? []).find((x) => x.toPort === port);
            return e ? portTypes(e.from, e.fromPort) : new Map();
          },
          opts,
        );
    } catch {
      out = new Map();
    }
    visiting.delete(nodeId);
    memo.set(nodeId, out);
    if (key !== null) cache!.types.set(key, out);
    return out;
  };

  return { inputOf: mergeInputs, outputOf: (nodeId, port) => new Map(portTypes(nodeId, port)) };
}

/**
 * Everything a node's `columnTypes` rule reads: its type and config, the types on each input edge
 * (its `input()` and `inputOn(port)` derive from them) and its sampled columns.
 */
function typesCacheKey(
  node: NormalizedJob['nodes'][number],
  inputs: NormalizedJob['edges'],
  portTypes: (from: string, port: string | undefined) => ColumnTypeMap,
  opts: ColumnTypeOptions,
): string {
  let key = `${node.type}\u0000${configKey(node.config)}\u0000${configKey(opts.sampled?.(node) ?? null)}`;
  for (const e of inputs) key += `\u0000${e.toPort ?? ''}\u0003${orderedTypesKey(portTypes(e.from, e.fromPort))}`;
  return key;
}

function computeOutput(
  node: NormalizedJob['nodes'][number],
  input: () => ColumnTypeMap,
  inputOn: (port: 'left' | 'right') => ColumnTypeMap,
  opts: ColumnTypeOptions,
): ColumnTypeMap {
  const rule = definitionOf(node).columnTypes;
  return rule ? rule(node.config, { input, inputOn, sampled: () => opts.sampled?.(node) }) : new Map();
}

function toColumnType(t: StaticType): ColumnType {
  const out: ColumnType = { type: t.type };
  if (t.precision !== undefined) out.precision = t.precision;
  if (t.scale !== undefined) out.scale = t.scale;
  return out;
}
