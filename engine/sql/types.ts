/** A record flowing through a job: column name -> value. A missing column reads as SQL NULL. */
export type Row = Record<string, unknown>;

/**
 * Static type of an expression as far as it is known at compile time. Columns are UNKNOWN (rows
 * are schemaless JSON/CSV); literals, CASTs and functions give a type. Flink's INT and BIGINT map
 * to BIGINT; a literal with a point (`1.5`) and CAST to DECIMAL(p, s) to DECIMAL, whose values are
 * exact `Decimal`s inside an expression (decimal.ts); FLOAT, DOUBLE and `1e3` literals to DOUBLE;
 * CHAR/VARCHAR/STRING to STRING.
 */
export type SqlType = 'BOOLEAN' | 'BIGINT' | 'DECIMAL' | 'DOUBLE' | 'STRING' | 'TIMESTAMP' | 'UNKNOWN';

export type Evaluator = (row: Row) => unknown;

/**
 * A column's static type where the job tells it (a source's declared `columns`, a map's computed
 * column, a window's aggregate): with it, a DOUBLE column divides as a double even for the value 4,
 * and a DECIMAL(p, s) column's numbers are exact Decimals in expressions, as in Flink. Without it
 * the type of a value is read from the value (engine/sql/arithmetic.ts).
 */
export interface ColumnType {
  type: SqlType;
  precision?: number;
  scale?: number;
}
export type ColumnTypes = ReadonlyMap<string, ColumnType>;

/** A compiled sub-expression. `constant` ones were folded at compile time. */
export interface Compiled {
  fn: Evaluator;
  type: SqlType;
  constant: boolean;
  /** For a DECIMAL: its precision and scale, when known. */
  precision?: number;
  scale?: number;
  /** Known to give a number (or NULL) even when the exact numeric type is UNKNOWN. */
  numeric?: boolean;
}

export type ExpressionKind = 'where' | 'select' | 'keyBy' | 'aggregates';
