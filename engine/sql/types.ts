/** A record flowing through a job: column name -> value. A missing column reads as SQL NULL. */
export type Row = Record<string, unknown>;

/**
 * Static type of an expression as far as it is known at compile time. Columns are UNKNOWN (rows
 * are schemaless JSON/CSV); literals, CASTs and functions give a type. Flink's INT, BIGINT and
 * DECIMAL(p, 0) literals map to BIGINT; DECIMAL with a scale, FLOAT and DOUBLE map to DOUBLE;
 * CHAR/VARCHAR/STRING to STRING.
 */
export type SqlType = 'BOOLEAN' | 'BIGINT' | 'DOUBLE' | 'STRING' | 'TIMESTAMP' | 'UNKNOWN';

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
