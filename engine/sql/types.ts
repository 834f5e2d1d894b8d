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

/** A compiled sub-expression. `constant` ones were folded at compile time. */
export interface Compiled {
  fn: Evaluator;
  type: SqlType;
  constant: boolean;
  /** Known to give a number (or NULL) even when the exact numeric type is UNKNOWN. */
  numeric?: boolean;
}

export type ExpressionKind = 'where' | 'select' | 'keyBy' | 'aggregates';
