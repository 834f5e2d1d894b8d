/**
 * Static column types (engine/graph/column-types.ts follows them through a job): a definition's
 * `columnTypes` rule gives the types of the columns a node emits from its config and its input's
 * types. Browser-safe.
 */
import type { ColumnType } from '../sql/index.ts';

export type ColumnTypeMap = Map<string, ColumnType>;

export interface ColumnTypesContext {
  /** The types of the columns reaching the node (computed on demand). */
  input(): ColumnTypeMap;
  /** The types on one input port of a two-input node (a join's `left` or `right`). */
  inputOn(port: 'left' | 'right'): ColumnTypeMap;
  /** Flink SQL types sampled from an undeclared file source's data, when the caller can read files. */
  sampled(): Record<string, string> | undefined;
}

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
  if (/^(ARRAY|MAP|ROW|MULTISET)\b/.test(t)) return { type: 'UNKNOWN', composite: flinkType.trim() };
  if (/^TIMESTAMP(_LTZ)?(\s*\(\s*\d\s*\))?$/.test(t)) return { type: 'TIMESTAMP' };
  return { type: 'UNKNOWN' };
}

/** Declared `name -> Flink SQL type` columns as static types. */
export function declaredColumnTypes(columns: Record<string, string>): ColumnTypeMap {
  return new Map(Object.entries(columns).map(([n, t]) => [n, columnTypeOfFlinkType(t)]));
}
