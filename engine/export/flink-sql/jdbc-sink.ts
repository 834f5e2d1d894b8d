/**
 * `sink.postgres` as Flink's JDBC connector. Flink's JDBC sink flushes batches and is at-least-once:
 * idempotent in upsert mode (a PRIMARY KEY makes it write `INSERT ... ON CONFLICT`), but a restart
 * may append rows twice in append mode, where Weir's prepared transactions are exactly-once.
 */
import type { JobNodeOf } from '../../graph/types.ts';
import { parsePgUrl } from '../../connectors/postgres/connection.ts';
import { parseKeyColumns } from '../../connectors/postgres/sink-table.ts';
import type { ExportContext } from './context.ts';
import { commentText } from './identifiers.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';

export interface JdbcSinkTable {
  options: Array<[string, string]>;
  comments: string[];
  /** Upsert: the key as `PRIMARY KEY (...) NOT ENFORCED` columns. */
  primaryKey: string[] | null;
}

export function jdbcSinkTable(
  ctx: ExportContext,
  node: JobNodeOf<typeof postgresSink.type> & { parallelism: number },
): JdbcSinkTable {
  const c = node.config;
  const u = parsePgUrl(c.url, ctx.path(node.id, 'config.url'));
  const options: Array<[string, string]> = [
    ['connector', 'jdbc'],
    ['url', `jdbc:postgresql://${u.host}:${u.port}/${u.database}`],
    ['table-name', c.table],
    ['username', u.user],
    ['password', `\${${c.passwordEnv ?? 'PGPASSWORD'}}`],
  ];
  const comments = [
    c.passwordEnv
      ? `-- 'password' is a placeholder: Weir reads it from the environment variable ${commentText(c.passwordEnv)}; job files hold no secrets.`
      : "-- 'password' is a placeholder: the job names no passwordEnv (the server trusts the user); job files hold no secrets.",
  ];
  const primaryKey = c.mode === 'upsert' ? parseKeyColumns(c.key ?? '') : null;
  if (c.mode === 'append') {
    comments.push("-- Flink's JDBC sink is at-least-once: after a restart it may append rows again.");
    ctx.warn(
      node,
      'config.mode',
      "Flink's JDBC sink is at-least-once: in append mode a restart may write rows twice, where Weir commits each checkpoint's rows exactly once (prepared transactions)",
    );
  } else {
    comments.push("-- Upsert by the primary key: Flink's JDBC sink is at-least-once but idempotent here.");
    ctx.warn(
      node,
      'config.mode',
      "Flink's JDBC sink is at-least-once (idempotent by the primary key in upsert mode); between checkpoints the table may show changes Weir commits only with the checkpoint",
    );
  }
  return { options, comments, primaryKey };
}
