/**
 * A `postgres-cdc` table, or a `jdbc` table on PostgreSQL that the script reads, as
 * `source.postgres` (cdc / snapshot): the inverse of export/flink-sql/postgres-source.ts. The
 * password stays out of the job: a `${NAME}` placeholder names passwordEnv, anything else is dropped
 * with a problem.
 */
import type { EventTimeConfig, PostgresSourceConfig } from '../../graph/types.ts';
import type { JobBuilder } from './builder.ts';
import type { TableStatement } from './statements.ts';
import { postgresSource } from '../../nodes/source-postgres/definition.ts';

export function isPostgresSource(connector: string, t: TableStatement): boolean {
  return connector === 'postgres-cdc' || (connector === 'jdbc' && /^jdbc:postgresql:\/\//.test(t.options.url ?? ''));
}

export function importPostgresSource(
  b: JobBuilder,
  t: TableStatement,
  id: string,
  eventTime: EventTimeConfig | undefined,
): void {
  const o = t.options;
  const cdc = (o.connector ?? '').toLowerCase() === 'postgres-cdc';
  const user = o.username ? `${encodeURIComponent(o.username)}@` : '';
  let url: string;
  let table: string;
  if (cdc) {
    url = `postgresql://${user}${o.hostname ?? 'localhost'}:${o.port ?? '5432'}/${o['database-name'] ?? 'postgres'}`;
    table = `${o['schema-name'] ?? 'public'}.${o['table-name'] ?? t.name}`;
  } else {
    url = `postgresql://${user}${(o.url ?? '').replace(/^jdbc:postgresql:\/\//, '').replace(/\?.*$/, '')}`;
    table = o['table-name'] ?? t.name;
  }
  const env = /^\$\{(\w+)\}$/.exec(o.password ?? '')?.[1];
  // `<password>` is the placeholder Weir's export writes for a source without passwordEnv.
  if (o.password && !env && o.password !== '<password>')
    b.problem(t.pos, `table '${t.name}': its password is not imported (job files hold no secrets): set passwordEnv`);
  const config: PostgresSourceConfig = {
    url,
    ...(env ? { passwordEnv: env } : {}),
    table,
    mode: cdc ? 'cdc' : 'snapshot',
  };
  if (t.columns.length > 0) config.columns = Object.fromEntries(t.columns.map((c) => [c.name, c.type]));
  if (t.primaryKey) config.primaryKey = t.primaryKey.join(', ');
  if (eventTime) config.eventTime = eventTime;
  if (cdc && o['slot.name'] && /^[a-z0-9_]{1,63}$/.test(o['slot.name'])) config.slotName = o['slot.name'];
  b.add({ id, type: postgresSource.type, config }, t.pos, t.origin);
}
