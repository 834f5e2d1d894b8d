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

/**
 * A node of node-sql-parser's expression AST (kept loose: the library's typings are partial). parse.ts
 * produces it, precedence.ts repairs it, compile.ts and its helpers read it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- node-sql-parser's AST is walked generically
export type SqlAst = { type: string; [key: string]: any };

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
  /**
   * A declared ARRAY, MAP, ROW or MULTISET type (`ARRAY<STRING>`), which expressions read as
   * UNKNOWN values but which cannot be compared or ordered (Flink refuses to ORDER BY them).
   */
  composite?: string;
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

/**
 * A scalar function: its argument count and how it compiles. functions.ts holds the table by name;
 * text-functions.ts and time-functions.ts define some of its entries (the spec type lives here so
 * those files need not import the table that imports them).
 */
/**
 * The type family a function parameter accepts, as Calcite's operand type checkers name them
 * (with the implicit casts Flink allows). An UNKNOWN argument (an untyped column) passes.
 */
export type ParamFamily = 'STRING' | 'NUMERIC' | 'INTEGER' | 'BOOLEAN' | 'TIMESTAMP' | 'ANY';

export interface FunctionSpec {
  min: number;
  max: number;
  /**
   * Accepted family per parameter; the last one repeats for variadic functions. compile.ts checks
   * the arguments' static types against it before `check` and `build`, and reports a mismatch as
   * Flink does: "Cannot apply 'UPPER' to arguments of type 'UPPER(<BIGINT>)'".
   */
  params?: readonly ParamFamily[];
  /** What the designer's autocomplete shows, e.g. `LPAD(STRING, INT, STRING) → STRING`. */
  signature?: string;
  /** A problem with the compiled arguments (a wrong static type, a bad constant pattern), or null. */
  check?(args: Compiled[]): string | null;
  build(args: Compiled[]): { fn: Evaluator; type: SqlType; precision?: number; scale?: number };
}

export type ExpressionKind = 'where' | 'select' | 'keyBy' | 'aggregates' | 'orderBy';
