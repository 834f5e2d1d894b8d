/**
 * Static checks of `source.postgres`, made without a database: the URL's shape (no password in a
 * job file), the table name, and that a declared primary key names declared columns. The table
 * itself (its key, REPLICA IDENTITY FULL for cdc) is checked when a run connects. Browser-safe.
 */
import type { JobDocument, JobProblem } from './types.ts';
import { postgresUrlProblem } from './check-postgres-sink.ts';

export function checkPostgresSources(doc: JobDocument, problems: JobProblem[]): void {
  doc.nodes.forEach((n, i) => {
    if (n.type !== 'source.postgres') return;
    const err = (field: string, message: string) =>
      problems.push({ path: `nodes[${i}].config.${field}`, message, severity: 'error', nodeId: n.id });
    const c = n.config;
    const urlProblem = postgresUrlProblem(c.url);
    if (urlProblem) err('url', urlProblem);
    const parts = c.table.split('.');
    if (parts.length > 2 || parts.some((p) => p.trim() === ''))
      err('table', `expected 'schema.table' or 'table', got '${c.table}'`);
    const cols = c.columns ? Object.keys(c.columns) : null;
    for (const k of (c.primaryKey ?? '').split(',').map((x) => x.trim())) {
      if (k && cols && !cols.includes(k))
        err('primaryKey', `'${k}' is not a declared column (known: ${cols.join(', ')})`);
    }
  });
}
