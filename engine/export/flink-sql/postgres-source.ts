/**
 * `source.postgres` in Flink SQL: `cdc` as the `postgres-cdc` connector (Flink CDC), `snapshot` as
 * the `jdbc` connector's bounded scan. Columns come from `config.columns` (the export never
 * connects to a database); the password is a placeholder to fill in, as Weir never stores one.
 */
import type { JobNodeOf } from '../../graph/types.ts';
import type { Col, ExportContext } from './context.ts';
import { rowtimeExpression, watermarkClause } from './event-time.ts';
import { quoteIdent, withOptions } from './identifiers.ts';
import { postgresSource } from '../../nodes/source-postgres/definition.ts';

type PostgresNode = JobNodeOf<typeof postgresSource.type> & { parallelism: number };

/** The parts of `postgresql://user@host:port/db` the connectors take (validation checked the URL). */
function pgUrlParts(text: string): { host: string; port: number; database: string; user: string } {
  const u = new URL(text);
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 5432,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
    user: decodeURIComponent(u.username) || 'postgres',
  };
}

export function postgresSourceColumns(node: PostgresNode): Col[] {
  return Object.entries(node.config.columns ?? {}).map(([name, type]) => ({ name, type: type.trim(), certain: true }));
}

export function emitPostgresSource(ctx: ExportContext, node: PostgresNode, jobSlot: string): void {
  const c = node.config;
  const url = pgUrlParts(c.url);
  const [schema, tableName] = c.table.includes('.') ? c.table.split('.', 2) : ['public', c.table];
  const table = { schema, table: tableName };
  const cols = ctx.sourceColumns.get(node.id) ?? [];
  const comments = [ctx.origin(node)];
  if (cols.length === 0)
    ctx.warn(
      node,
      'config.columns',
      'no declared columns: declare config.columns (name -> Flink SQL type) for a complete CREATE TABLE',
    );
  const lines = cols.map((col) => `  ${quoteIdent(col.name)} ${col.type}`);
  const key = (c.primaryKey ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k);
  if (key.length === 0)
    ctx.warn(
      node,
      'config.primaryKey',
      "no primaryKey: Flink needs the table's PRIMARY KEY to read a changelog (postgres-cdc) and to split a scan; set config.primaryKey",
    );
  let rowtime: string | null = null;
  if (c.eventTime) {
    rowtime = ctx.rowtimeName;
    const rt = rowtimeExpression(
      c.eventTime.field,
      cols.find((col) => col.name === c.eventTime!.field),
      'skip',
    );
    lines.push(`  ${quoteIdent(rowtime)} AS ${rt.expr}`, `  ${watermarkClause(rowtime, c.eventTime)}`);
  }
  // The table constraint comes after every column and the watermark (Flink's grammar).
  if (key.length > 0) lines.push(`  PRIMARY KEY (${key.map(quoteIdent).join(', ')}) NOT ENFORCED`);
  const password = c.passwordEnv ? `\${${c.passwordEnv}}` : '<password>';
  comments.push(
    `-- The password is a placeholder: Weir reads it from ${c.passwordEnv ? `$${c.passwordEnv}` : 'passwordEnv'} at run time, never from the job.`,
  );
  let options: Array<[string, string]>;
  if (c.mode === 'cdc') {
    options = [
      ['connector', 'postgres-cdc'],
      ['hostname', url.host],
      ['port', String(url.port)],
      ['username', url.user],
      ['password', password],
      ['database-name', url.database],
      ['schema-name', table.schema],
      ['table-name', table.table],
      ['slot.name', c.slotName ?? jobSlot],
      ['decoding.plugin.name', 'pgoutput'],
    ];
    comments.push(
      "-- Needs flink-sql-connector-postgres-cdc on Flink's classpath, and REPLICA IDENTITY FULL on the table for update-before rows.",
    );
    ctx.warn(
      node,
      'config.mode',
      'postgres-cdc is not part of Flink: add the flink-sql-connector-postgres-cdc jar; like Weir it needs REPLICA IDENTITY FULL for -U rows, but it keeps its own slot and offsets (a Weir checkpoint does not carry over)',
    );
  } else {
    options = [
      ['connector', 'jdbc'],
      ['url', `jdbc:postgresql://${url.host}:${url.port}/${url.database}`],
      ['table-name', table.schema === 'public' ? table.table : `${table.schema}.${table.table}`],
      ['username', url.user],
      ['password', password],
    ];
    comments.push("-- A bounded scan; needs flink-connector-jdbc and the PostgreSQL JDBC driver on Flink's classpath.");
    ctx.warn(
      node,
      'config.mode',
      "Flink's jdbc scan is not checkpointed mid-read (a failure reads the table again) and has no key order; Weir resumes after the last key read",
    );
  }
  const name = quoteIdent(node.id);
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${name} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  // CDC reads a changelog (+I, -U, +U, -D): a Kafka sink after it is upsert-kafka, as in Weir.
  ctx.relations.set(node.id, { sql: name, columns: cols, rowtime, ...(c.mode === 'cdc' ? { changelog: true } : {}) });
}
