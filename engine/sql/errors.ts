/**
 * The one error type of the expression layer. `column` is 1-based and counts characters of the
 * user's own text (the `where`/`select`/... string), never the `SELECT ... FROM` wrapper the
 * parser sees; for multi-line text it is the character offset + 1, not a per-line column.
 * `message` always ends with `(column N)` so it can be shown as is after a config path:
 * `nodes[1].config.where: expected an expression after '>=' (column 9)`.
 */
export class ExpressionError extends Error {
  readonly column: number;
  /** The message without the `(column N)` suffix. */
  readonly detail: string;

  constructor(detail: string, column: number) {
    const col = Math.max(1, Math.floor(column));
    super(`${detail} (column ${col})`);
    this.name = 'ExpressionError';
    this.detail = detail;
    this.column = col;
  }
}

/**
 * A value an expression cannot compute and that Flink fails the job on: a CAST of unconvertible
 * text (TRY_CAST gives NULL instead), an integer or DECIMAL division by zero. The runtime prefixes
 * the node's config path (`nodes[2].config.select: ...`); the message names the value.
 */
export class SqlRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SqlRuntimeError';
  }
}
