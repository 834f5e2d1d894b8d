/** `source.postgres`: one table, read once (snapshot) or as a changelog of its changes (cdc). */
import { z } from 'zod';
import { eventTime, nonEmpty } from '../schema-pieces.ts';
import type { EventTimeConfig } from '../config.ts';
import { mapEventTime } from '../durations.ts';
import { declaredColumnTypes } from '../column-types.ts';
import { checkEventTimeRanges } from '../ranges.ts';
import { clip, str } from '../text.ts';
import { checkPostgresEndpoint } from '../postgres-checks.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { endpointFields } from '../postgres-fields.ts';
import { eventTimeField } from '../shared-fields.ts';

/**
 * `source.postgres`: one table. `snapshot` reads it once in primary-key order (bounded); `cdc` reads
 * a snapshot and then the table's changes through a logical replication slot (a changelog).
 */
export interface PostgresSourceConfig {
  /** `postgresql://user@host:5432/db` (never a password: see passwordEnv). */
  url: string;
  /** Environment variable holding the password, read when the run connects. */
  passwordEnv?: string;
  /** `schema.table` or `table` (schema public). */
  table: string;
  mode: 'snapshot' | 'cdc';
  eventTime?: EventTimeConfig;
  /** Declared columns (name -> Flink SQL type), for validation and export before any connection. */
  columns?: Record<string, string>;
  /** Primary-key columns, comma-separated: for export (Flink's PRIMARY KEY); checked against the table at run start. */
  primaryKey?: string;
  /** Replication slot name (cdc); default `weir_<job>_<node>`. */
  slotName?: string;
}

const configSchema = z.strictObject({
  url: nonEmpty.meta({ description: 'postgresql://user@host:5432/db (no password: see passwordEnv)' }),
  passwordEnv: nonEmpty.optional().meta({ description: 'Environment variable holding the password' }),
  table: nonEmpty.meta({ description: "'schema.table' or 'table' (schema public)" }),
  mode: z.enum(['snapshot', 'cdc']),
  eventTime: eventTime.optional(),
  columns: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'Declared columns: name -> Flink SQL type' }),
  primaryKey: nonEmpty.optional().meta({ description: "Primary-key columns, comma-separated: 'id' or 'region, id'" }),
  slotName: z
    .string()
    .regex(/^[a-z0-9_]{1,63}$/, { error: 'a slot name is 1-63 characters of a-z, 0-9 and _' })
    .optional(),
});
// Compile-time proof: the schema and PostgresSourceConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, PostgresSourceConfig>>;

export const postgresSource = defineNode<'source.postgres', PostgresSourceConfig>({
  type: 'source.postgres',
  palette: {
    label: 'PostgreSQL',
    group: 'Sources',
    idPrefix: 'postgres',
    description: 'A PostgreSQL table: read once in key order (snapshot), or its snapshot and then its changes (CDC).',
    // database cylinder
    icon: 'M5 6c0-1.7 3.1-3 7-3s7 1.3 7 3-3.1 3-7 3-7-1.3-7-3z M5 6v12c0 1.7 3.1 3 7 3s7-1.3 7-3V6 M5 12c0 1.7 3.1 3 7 3s7-1.3 7-3',
    newConfig: () => ({ url: 'postgresql://postgres@localhost:5432/postgres', table: 'public.orders', mode: 'cdc' }),
    summary: (c) => clip(`${str(c.mode) || '?'} ${str(c.table) || '(no table)'}`),
  },
  ports: { outputs: ['out'], minInputs: 0, maxInputs: 0 },
  envKeys: ['passwordEnv'],
  configSchema,
  // The table itself (its key, REPLICA IDENTITY FULL for cdc) is checked when a run connects.
  check: (c, ctx) => {
    checkPostgresEndpoint(c, ctx);
    const cols = c.columns ? Object.keys(c.columns) : null;
    for (const k of (c.primaryKey ?? '').split(',').map((x) => x.trim())) {
      if (k && cols && !cols.includes(k))
        ctx.error('primaryKey', `'${k}' is not a declared column (known: ${cols.join(', ')})`);
    }
  },
  completionColumns: (c) => Object.keys(c.columns ?? {}),
  checkRanges: (c, r) => checkEventTimeRanges(r, c.eventTime),
  columnTypes: (c) => declaredColumnTypes(c.columns ?? {}),
  mapDurations: (c, f) => (c.eventTime ? { ...c, eventTime: mapEventTime(c.eventTime, f) } : { ...c }),
  eventTime: { has: (c) => !!c.eventTime },
  sourceColumns: (c) => (c.columns ? Object.keys(c.columns) : null),
  // A CDC source emits the table's changes (Flink's postgres-cdc is a changelog source too).
  changelog: { produces: (c) => c.mode === 'cdc' },
  defaults: {},
  fields: [
    ...endpointFields<PostgresSourceConfig>('schema.table, with a primary key'),
    {
      kind: 'select',
      path: 'mode',
      label: 'Mode',
      options: [
        { value: 'cdc', label: 'CDC (snapshot, then every change: a changelog)' },
        { value: 'snapshot', label: 'Snapshot (read the table once, in key order)' },
      ],
      empty: 'cdc',
    },
    { kind: 'testConnection', testId: 'pg-source-test' },
    {
      kind: 'columns',
      path: 'columns',
      label: 'Columns',
      placeholder: 'id BIGINT, amount DECIMAL(10, 2)',
      help: "Name and Flink SQL type, for validation and export (the run reads the table's own)",
    },
    {
      kind: 'text',
      path: 'primaryKey',
      label: 'Primary key',
      placeholder: 'id',
      help: 'For the Flink SQL export (PRIMARY KEY NOT ENFORCED)',
    },
    eventTimeField(),
    {
      kind: 'note',
      when: (c) => c.mode === 'cdc',
      text: () =>
        'A changelog (+I, -U, +U, -D): the table needs REPLICA IDENTITY FULL. The replication slot is confirmed only when a checkpoint completes, and stays when the job stops: drop it when the job is retired.',
    },
  ],
});
