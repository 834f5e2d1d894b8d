/**
 * Static checks the PostgreSQL source and sink share, made without a database: the URL's shape (no
 * password in a job file) and the table name. What needs the server is checked when a run connects.
 */
import type { NodeCheckContext } from './checks.ts';

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

/** The URL and the table name of a PostgreSQL node. */
export function checkPostgresEndpoint(c: { url: string; table: string }, ctx: NodeCheckContext): void {
  const urlProblem = postgresUrlProblem(c.url);
  if (urlProblem) ctx.error('url', urlProblem);
  const parts = c.table.split('.');
  if (parts.length > 2 || parts.some((p) => p.trim() === ''))
    ctx.error('table', `expected 'schema.table' or 'table', got '${c.table}'`);
}
