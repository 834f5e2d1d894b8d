/**
 * Static checks of `sink.postgres`, made without a database (`weir validate`, the designer): the
 * URL's shape (no password in a job file), the table name, an upsert's key, and that the key
 * columns reach the sink where the input's columns are known. What needs the server (the table, its
 * columns and types) is checked when a run starts (connectors/postgres/sink-recovery.ts).
 * Browser-safe.
 */
import type { JobDocument, JobProblem } from './types.ts';
import type { NodeColumns } from './check-columns.ts';

/** Why `url` is not a `postgresql://user@host:port/db` URL without a password, or null. */
export function postgresUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `expected a URL like postgresql://user@host:5432/db, got '${url}'`;
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:')
    return `expected the scheme postgresql://, got '${u.protocol}//'`;
  if (u.password)
    return 'the URL carries a password; job files must not hold secrets: name an environment variable in passwordEnv instead';
  if (!u.hostname) return 'the URL names no host';
  if (!u.pathname.replace(/^\//, '')) return 'the URL names no database (postgresql://user@host:5432/db)';
  return null;
}

export function checkPostgresSinks(doc: JobDocument, columns: NodeColumns, problems: JobProblem[]): void {
  doc.nodes.forEach((n, i) => {
    if (n.type !== 'sink.postgres') return;
    const at = `nodes[${i}].config`;
    const err = (field: string, message: string) =>
      problems.push({ path: `${at}.${field}`, message, severity: 'error', nodeId: n.id });
    const c = n.config;
    const urlProblem = postgresUrlProblem(c.url);
    if (urlProblem) err('url', urlProblem);
    const parts = c.table.split('.');
    if (parts.length > 2 || parts.some((p) => p.trim() === ''))
      err('table', `expected 'schema.table' or 'table', got '${c.table}'`);
    if (c.mode === 'append' && c.key !== undefined)
      err('key', 'a key is only used in upsert mode: remove it or set mode to "upsert"');
    if (c.mode !== 'upsert') return;
    const key = (c.key ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
    if (key.length === 0) {
      err('key', 'upsert mode needs a key: the columns of a primary key or unique constraint, e.g. "id"');
      return;
    }
    const known = new Set<string>();
    for (const e of doc.edges) {
      if (e.to !== n.id) continue;
      const cols = e.fromPort === 'bad' ? null : columns.get(e.from)?.[e.fromPort === 'late' ? 'late' : 'out'];
      if (!cols || cols.includes('*')) return; // unknown before reading data
      for (const col of cols) known.add(col);
    }
    const missing = key.filter((k) => !known.has(k));
    if (missing.length > 0)
      err(
        'key',
        `key column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} not in the input (known: ${[...known].join(', ')})`,
      );
  });
}
