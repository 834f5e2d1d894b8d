/**
 * Static column types through a job's graph, so that expressions are typed as Flink types them:
 * a source's declared `columns` (Flink SQL types), a generator's fixed fields, a map's computed
 * columns, a window's keys and aggregates. A DOUBLE column then divides as a double even for the
 * value 4, and a DECIMAL(p, s) column computes exactly. Columns nobody declares stay untyped and
 * are typed by their values (engine/sql/arithmetic.ts); docs/sql-semantics.md says where that
 * differs from Flink, which types a column once for the whole table.
 */
import { compileAggregates, compileProjectionDetailed, parseKeyBy, type ColumnType } from '../sql/index.ts';
import type { NormalizedJob } from './types.ts';
import { NEXMARK_COLUMNS, isNexmarkPort } from './nexmark.ts';

export type ColumnTypeMap = Map<string, ColumnType>;

/** A Flink SQL type name as Weir's static type; UNKNOWN for what expressions do not distinguish. */
export function columnTypeOfFlinkType(flinkType: string): ColumnType {
  const t = flinkType.trim().toUpperCase();
  if (/^(TINYINT|SMALLINT|INT|INTEGER)$/.test(t)) return { type: 'BIGINT', precision: 10 };
  if (t === 'BIGINT') return { type: 'BIGINT' };
  if (/^(FLOAT|REAL|DOUBLE( PRECISION)?)$/.test(t)) return { type: 'DOUBLE' };
  const d = /^(?:DECIMAL|DEC|NUMERIC)(?:\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?$/.exec(t);
  if (d) return { type: 'DECIMAL', precision: d[1] ? Number(d[1]) : 10, scale: d[2] ? Number(d[2]) : 0 };
  if (/^(STRING|VARCHAR|CHAR)/.test(t)) return { type: 'STRING' };
  if (t === 'BOOLEAN') return { type: 'BOOLEAN' };
  return { type: 'UNKNOWN' };
}

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
  switch (node.type) {
    case 'source.file': {
      const out: ColumnTypeMap = new Map();
      // Declared columns win; without them, the types a sample of the data gives (as the export's).
      const columns = node.config.columns ?? opts.sampled?.(node) ?? {};
      for (const [name, t] of Object.entries(columns)) out.set(name, columnTypeOfFlinkType(t));
      return out;
    }
    case 'source.postgres':
      return new Map(Object.entries(node.config.columns ?? {}).map(([n, t]) => [n, columnTypeOfFlinkType(t)]));
    case 'source.generator':
      return new Map<string, ColumnType>([
        ['seq', { type: 'BIGINT' }],
        ['key', { type: 'STRING' }],
        ['value', { type: 'BIGINT' }],
        ['ts', { type: 'BIGINT' }],
      ]);
    case 'filter':
    case 'union':
      return input();
    case 'map': {
      const types = input();
      const p = compileProjectionDetailed(node.config.select, types);
      const out: ColumnTypeMap = p.columns === null ? new Map(types) : new Map();
      for (const c of p.columns ?? p.extra) {
        const t: ColumnType = { type: c.type ?? 'UNKNOWN' };
        if (c.precision !== undefined) {
          t.precision = c.precision;
          t.scale = c.scale;
        }
        out.set(c.name, t);
      }
      return out;
    }
    case 'window': {
      const types = input();
      const out: ColumnTypeMap = new Map([
        ['window_start', { type: 'STRING' }],
        ['window_end', { type: 'STRING' }],
      ]);
      for (const k of parseKeyBy(node.config.keyBy ?? '').columns) out.set(k, types.get(k) ?? { type: 'UNKNOWN' });
      for (const a of compileAggregates(node.config.aggregates, types)) out.set(a.alias, a.resultType);
      return out;
    }
    default:
      return new Map();
  }
}
