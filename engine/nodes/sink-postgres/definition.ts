/** `sink.postgres`: rows into an existing table, exactly once (prepared transactions or upserts by key). */
import { z } from 'zod';
import { nonEmpty } from '../schema-pieces.ts';
import { clip, str } from '../text.ts';
import { checkPostgresEndpoint } from '../postgres-checks.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { endpointFields } from '../postgres-fields.ts';

/**
 * `sink.postgres`: rows written by column name into an existing table, exactly once (append: a
 * prepared transaction per checkpoint and subtask; upsert: a changelog applied by `key`).
 */
export interface PostgresSinkConfig {
  /** `postgresql://user@host:5432/db`, never with a password. */
  url: string;
  /** The environment variable holding the password, read when the run connects. */
  passwordEnv?: string;
  /** `schema.table` or `table` (schema public). */
  table: string;
  mode: 'append' | 'upsert';
  /** Upsert only: `col, col`, columns of a primary key or unique constraint of the table. */
  key?: string;
}

const configSchema = z.strictObject({
  url: nonEmpty.meta({ description: 'postgresql://user@host:5432/db (no password: use passwordEnv)' }),
  passwordEnv: nonEmpty.optional().meta({ description: 'Environment variable holding the password' }),
  table: nonEmpty.meta({ description: "'schema.table' or 'table' (schema public)" }),
  mode: z.enum(['append', 'upsert']),
  key: nonEmpty.optional().meta({ description: "Upsert: 'col, col' of a primary key or unique constraint" }),
});
// Compile-time proof: the schema and PostgresSinkConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, PostgresSinkConfig>>;

export const postgresSink = defineNode<'sink.postgres', PostgresSinkConfig>({
  type: 'sink.postgres',
  palette: {
    label: 'PostgreSQL sink',
    group: 'Sinks',
    idPrefix: 'pg-sink',
    description:
      'Writes into an existing PostgreSQL table exactly once: a prepared transaction per checkpoint (append), or a changelog applied by key (upsert).',
    // database cylinder
    icon: 'M12 3c4.4 0 8 1.3 8 3v12c0 1.7-3.6 3-8 3s-8-1.3-8-3V6c0-1.7 3.6-3 8-3z M4 6c0 1.7 3.6 3 8 3s8-1.3 8-3 M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
    newConfig: () => ({ url: 'postgresql://postgres@localhost:5432/postgres', table: 'public.output', mode: 'append' }),
    summary: (c) => clip(`${str(c.mode) || '?'} ${str(c.table) || '(no table)'}`),
  },
  ports: { outputs: [], minInputs: 1, maxInputs: Infinity },
  envKeys: ['passwordEnv'],
  transactional: { pendingUnit: 'transaction(s)' },
  // Its prepared transactions insert into this table: a restore writing elsewhere must not strand them.
  stateLayout: (c) => ({ url: c.url, table: c.table }),
  configSchema,
  // The table, its columns and types: checked by `weir validate`/`weir run` and the host from the
  // table's catalog (graph/check-sink-tables.ts), and again when a run starts (connectors/postgres/sink-recovery.ts).
  check: (c, ctx) => {
    checkPostgresEndpoint(c, ctx);
    if (c.mode === 'append' && c.key !== undefined)
      ctx.error('key', 'a key is only used in upsert mode: remove it or set mode to "upsert"');
    if (c.mode !== 'upsert') return;
    const key = (c.key ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
    if (key.length === 0) {
      ctx.error('key', 'upsert mode needs a key: the columns of a primary key or unique constraint, e.g. "id"');
      return;
    }
    const known = ctx.inputColumns();
    if (!known) return; // unknown before reading data
    const missing = key.filter((k) => !known.has(k));
    if (missing.length > 0)
      ctx.error(
        'key',
        `key column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} not in the input (known: ${[...known].join(', ')})`,
      );
  },
  completionColumns: () => [],
  changelog: {
    accepts: (c) => c.mode === 'upsert',
    refusalHint: (_c, at) => `: set ${at('mode')} to "upsert" with a key (append mode would keep every retracted row)`,
  },
  // One key, one subtask: two subtasks' prepared transactions on one row would wait on each other.
  partitionKey: (c) => (c.mode === 'upsert' ? c.key : undefined),
  defaults: {},
  fields: [
    ...endpointFields<PostgresSinkConfig>('An existing table: schema.table'),
    {
      kind: 'select',
      path: 'mode',
      label: 'Mode',
      options: [
        { value: 'append', label: 'Append (insert every row)' },
        { value: 'upsert', label: 'Upsert (apply a changelog by key)' },
      ],
      empty: 'append',
    },
    {
      kind: 'text',
      path: 'key',
      label: 'Key',
      help: 'Columns of a primary key or unique constraint: id, day',
      when: (c) => c.mode === 'upsert',
    },
    { kind: 'testConnection', testId: 'pg-test' },
    { kind: 'inputColumns' },
    {
      kind: 'note',
      text: () =>
        'Exactly once: rows become visible when the checkpoint that covers them completes (prepared transactions).',
    },
  ],
});
