/**
 * Reads the catalog of every `sink.postgres` table of a job before it is validated (Node only):
 * `weir validate`, `weir run` and the host hand the result to `validateJob` as `sinkCatalogs`
 * (engine/graph/check-sink-tables.ts checks the sink's columns against it).
 *
 * Never hangs and never throws: a database that does not answer within `timeoutMs`, a password
 * variable that is not set or may not be read here, become an 'unchecked' answer (a warning; the
 * run checks the table when it starts, connectors/postgres/sink-recovery.ts). A URL or table name
 * that does not parse is left to validation, which reports it at its field.
 */
import type pg from 'pg';
import type { SinkCatalog, SinkCatalogs } from '../../graph/check-sink-tables.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';
import { PgConfigError, parsePgUrl, parseTableName, pgClientConfig } from './connection.ts';
import { describeTable } from './sink-table.ts';
import { flinkTypeOfPgType } from './flink-types.ts';

export interface ReadSinkCatalogsOptions {
  /** How long to wait for a connection, and for each catalog query (default 3 s). */
  timeoutMs?: number;
  /** Why the job may not read this environment variable here (the host's allowance); null: it may. */
  envRefusal?: (name: string) => string | null;
}

const LATER = 'the run checks the table when it starts';

interface SinkTarget {
  url: string;
  passwordEnv?: string;
  table: string;
}

/** The `sink.postgres` nodes of an unvalidated document whose url and table are strings. */
function sinkTargets(input: unknown): Array<{ id: string; at: string; target: SinkTarget }> {
  const nodes = (input as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes.flatMap((n: unknown, i) => {
    const node = n as { id?: unknown; type?: unknown; config?: Record<string, unknown> } | null;
    const c = node?.config;
    if (node?.type !== postgresSink.type || typeof node.id !== 'string' || !c) return [];
    if (typeof c.url !== 'string' || typeof c.table !== 'string') return [];
    const passwordEnv = typeof c.passwordEnv === 'string' ? c.passwordEnv : undefined;
    return [{ id: node.id, at: `nodes[${i}].config`, target: { url: c.url, table: c.table, passwordEnv } }];
  });
}

async function readOne(target: SinkTarget, at: string, opts: ReadSinkCatalogsOptions): Promise<SinkCatalog | null> {
  const timeout = opts.timeoutMs ?? 3000;
  try {
    parsePgUrl(target.url, `${at}.url`);
    parseTableName(target.table, `${at}.table`);
  } catch {
    return null; // validation names the bad field itself
  }
  const refusal = target.passwordEnv ? opts.envRefusal?.(target.passwordEnv) : null;
  if (refusal) return { state: 'unchecked', field: 'passwordEnv', message: `table not checked: ${refusal}` };
  let config: pg.ClientConfig;
  try {
    config = pgClientConfig(target, at);
  } catch (e) {
    const msg = (e as Error).message.replace(/^\S+: /, '');
    return { state: 'unchecked', field: 'passwordEnv', message: `table not checked before the run: ${msg}; ${LATER}` };
  }
  const where = `${config.host}:${config.port}/${config.database}`;
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ ...config, connectionTimeoutMillis: timeout, query_timeout: timeout });
  client.on('error', () => {}); // a server going away mid-read is answered by the failed query
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    return {
      state: 'unchecked',
      field: 'url',
      message: `table not checked: cannot connect to ${where} as ${config.user} (${(e as Error).message}); ${LATER}`,
    };
  }
  try {
    const t = await describeTable(client, target.table, `${at}.table`);
    return {
      state: 'table',
      table: t.name,
      uniqueKeys: t.uniqueKeys,
      columns: t.columns.map((c) => ({
        name: c.name,
        dbType: c.type,
        flinkType: flinkTypeOfPgType(c.baseType, c.type),
        notNull: c.notNull,
        hasDefault: c.hasDefault,
      })),
    };
  } catch (e) {
    if (e instanceof PgConfigError) return { state: 'missing', message: e.message.slice(e.where.length + 2) };
    return {
      state: 'unchecked',
      field: 'url',
      message: `table not checked: reading its columns from ${where} failed (${(e as Error).message}); ${LATER}`,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Node id -> what its table's catalog says; empty for a job without `sink.postgres`. */
export async function readSinkCatalogs(input: unknown, opts: ReadSinkCatalogsOptions = {}): Promise<SinkCatalogs> {
  const targets = sinkTargets(input);
  const answers = await Promise.all(targets.map((t) => readOne(t.target, t.at, opts)));
  const out = new Map<string, SinkCatalog>();
  targets.forEach((t, i) => {
    const a = answers[i];
    if (a) out.set(t.id, a);
  });
  return out;
}
