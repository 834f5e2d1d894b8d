/**
 * Connecting to PostgreSQL from a job's `url` and `passwordEnv`, shared by the PostgreSQL source
 * and sink. Passwords never live in job files: a URL that carries one is refused, and the password
 * comes from the environment variable the job names (read when the run connects, not when the job
 * is validated, so a job file can be checked on a machine without the secret).
 */
// Only the type at load time: pg loads when a job connects (the task process starts without it).
import type pg from 'pg';

export interface PgEndpoint {
  url: string;
  passwordEnv?: string;
}

/** A problem with a PostgreSQL endpoint, named by where it is in the job (`nodes[3].config.url`). */
export class PgConfigError extends Error {
  override name = 'PgConfigError';
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
  }
}

export interface ParsedPgUrl {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Checks a `postgresql://user@host:port/db` URL without connecting; `where` prefixes errors. */
export function parsePgUrl(url: string, where: string): ParsedPgUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PgConfigError(where, `expected a URL like postgresql://user@host:5432/db, got '${url}'`);
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:')
    throw new PgConfigError(where, `expected the scheme postgresql://, got '${u.protocol}//'`);
  if (u.password)
    throw new PgConfigError(
      where,
      'the URL carries a password; job files must not hold secrets: name an environment variable in passwordEnv instead',
    );
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!u.hostname) throw new PgConfigError(where, 'the URL names no host');
  if (!database) throw new PgConfigError(where, 'the URL names no database (postgresql://user@host:5432/db)');
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 5432,
    database,
    user: decodeURIComponent(u.username) || 'postgres',
  };
}

/** Options for a `pg.Client` (or the replication client), with the password from the environment. */
export function pgClientConfig(endpoint: PgEndpoint, where: string): pg.ClientConfig {
  const parsed = parsePgUrl(endpoint.url, `${where}.url`);
  let password: string | undefined;
  if (endpoint.passwordEnv) {
    password = process.env[endpoint.passwordEnv];
    if (password === undefined)
      throw new PgConfigError(
        `${where}.passwordEnv`,
        `the environment variable ${endpoint.passwordEnv} is not set (it should hold the database password)`,
      );
  }
  return {
    host: parsed.host,
    port: parsed.port,
    database: parsed.database,
    user: parsed.user,
    password,
    application_name: 'weir',
    connectionTimeoutMillis: 10_000,
  };
}

/** Connects, turning connection failures into one line that names the node and the server. */
export async function pgConnect(endpoint: PgEndpoint, where: string): Promise<pg.Client> {
  const config = pgClientConfig(endpoint, where);
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client(config);
  try {
    await client.connect();
  } catch (err) {
    throw new PgConfigError(
      `${where}.url`,
      `cannot connect to ${config.host}:${config.port}/${config.database} as ${config.user}: ${(err as Error).message}`,
    );
  }
  return client;
}

/** `schema.table` or `table` (schema public); identifiers are quoted, so case is kept. */
export function parseTableName(name: string, where: string): { schema: string; table: string; sql: string } {
  const parts = name.split('.');
  if (parts.length > 2 || parts.some((p) => p.trim() === ''))
    throw new PgConfigError(where, `expected 'schema.table' or 'table', got '${name}'`);
  const [schema, table] = parts.length === 2 ? [parts[0].trim(), parts[1].trim()] : ['public', parts[0].trim()];
  return { schema, table, sql: `${quoteIdent(schema)}.${quoteIdent(table)}` };
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
