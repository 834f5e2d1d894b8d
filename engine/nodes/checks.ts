/**
 * A definition's own static checks (`check`), made without a database or data: what the schema
 * cannot say about one node's config. engine/graph/check-nodes.ts runs them after the column
 * checks. Browser-safe.
 */

export interface NodeCheckContext {
  /** Records an error at `config.<field>`. */
  error(field: string, message: string): void;
  /** The columns reaching the node from all its inputs; null when some are unknown before reading data. */
  inputColumns(): ReadonlySet<string> | null;
}
