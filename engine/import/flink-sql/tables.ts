/**
 * CREATE TABLE as a Weir node: a `filesystem` table read by the script becomes `source.file`, one
 * written by an INSERT `sink.file`; `datagen` becomes `source.generator` (reading back the fields
 * Weir's export gives it); `print` becomes `sink.preview`. The computed column that carries the
 * WATERMARK is the event time: its physical column is `eventTime.field`, and the watermark delay
 * minus 1 ms is `maxOutOfOrderness` (Weir's watermark is max - maxOutOfOrderness - 1 ms).
 */
import type { FileSourceConfig, GeneratorSourceConfig, JobNode, PostgresSinkConfig } from '../../graph/types.ts';
import type { JobBuilder } from './builder.ts';
import type { TableStatement } from './statements.ts';
import { intervalsIn, weirDuration } from './values.ts';
import { jobPath } from './paths.ts';
import { importPostgresSource, isPostgresSource } from './postgres-source.ts';
import { importKafkaSource, kafkaTimestampEventTime } from './kafka-source.ts';
import { isKafkaSink, kafkaSinkConfig } from './kafka-sink.ts';
import { GENERATOR_DEFAULTS } from '../../nodes/source-generator/definition.ts';
import { fileSink } from '../../nodes/sink-file/definition.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';
import { kafkaSink } from '../../nodes/sink-kafka/definition.ts';
import { previewSink } from '../../nodes/sink-preview/definition.ts';
import { blackholeSink } from '../../nodes/sink-blackhole/definition.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';
import { generatorSource } from '../../nodes/source-generator/definition.ts';

const KEY_INDEX = 'weir_key_index';
const JITTER = 'weir_ts_jitter';
const FAST_ROWS_PER_SECOND = 1_000_000;

/** Suffixes of the tables Weir's export puts under a source's filtering view. */
export const SOURCE_TABLE_SUFFIX = /__(raw|csv)$/;

export function importTable(b: JobBuilder, t: TableStatement, isSink: boolean): void {
  const connector = (t.options.connector ?? '').toLowerCase();
  const id = b.freeId(t.origin?.id ?? t.name.replace(SOURCE_TABLE_SUFFIX, ''));
  if (isSink) {
    if (connector === 'filesystem') {
      // debezium-json is how the export writes Weir's changelog-json (the changes of an updating result).
      const format =
        t.options.format === 'csv' ? 'csv' : t.options.format === 'debezium-json' ? 'changelog-json' : 'jsonl';
      const node: JobNode = {
        id,
        type: fileSink.type,
        config: { path: jobPath(b, t.options.path ?? '', t.pos), format },
      };
      if (t.options['sink.parallelism']) node.parallelism = Number(t.options['sink.parallelism']);
      b.add(node, t.pos, t.origin);
    } else if (connector === 'jdbc' && /^jdbc:postgresql:\/\//.test(t.options.url ?? '')) {
      const node: JobNode = { id, type: postgresSink.type, config: postgresSinkConfig(t) };
      if (t.options.password && !node.config.passwordEnv && !t.notes.some((n) => /names no passwordEnv/.test(n)))
        b.problem(
          t.pos,
          `table '${t.name}': its password is not imported (job files hold no secrets): set passwordEnv`,
        );
      if (t.options['sink.parallelism']) node.parallelism = Number(t.options['sink.parallelism']);
      b.add(node, t.pos, t.origin);
    } else if (isKafkaSink(connector)) {
      const node: JobNode = { id, type: kafkaSink.type, config: kafkaSinkConfig(b, t) };
      if (t.options['sink.parallelism']) node.parallelism = Number(t.options['sink.parallelism']);
      b.add(node, t.pos, t.origin);
    } else if (connector === 'print' || connector === 'blackhole') {
      const type = connector === 'print' ? previewSink.type : blackholeSink.type;
      const node: JobNode = { id, type, config: {} };
      if (t.options['sink.parallelism']) node.parallelism = Number(t.options['sink.parallelism']);
      b.add(node, t.pos, t.origin);
    } else {
      b.problem(
        t.pos,
        `table '${t.name}': connector '${connector}' has no Weir sink (filesystem, jdbc to PostgreSQL, kafka, upsert-kafka, print and blackhole do); left out`,
        'error',
      );
      return;
    }
    b.relations.set(t.name, { nodes: [id], rowtime: null, columns: t.columns.map((c) => c.name) });
    return;
  }
  const wm = t.watermark;
  const rowtimeCol = wm ? t.computed.find((c) => c.name === wm.column) : undefined;
  if (connector === 'filesystem') importFileSource(b, t, id, rowtimeCol?.expr ?? null);
  else if (connector === 'datagen') importDatagen(b, t, id);
  else if (isPostgresSource(connector, t)) importPostgresSource(b, t, id, eventTimeOf(b, t, rowtimeCol?.expr ?? null));
  else if (connector === 'kafka') {
    const et = kafkaTimestampEventTime(t) ?? eventTimeOf(b, t, rowtimeCol?.expr ?? null);
    if (!importKafkaSource(b, t, id, et)) return;
  } else {
    b.problem(
      t.pos,
      `table '${t.name}': connector '${connector}' has no Weir source (filesystem, datagen, kafka, postgres-cdc and jdbc on PostgreSQL do); left out`,
      'error',
    );
    return;
  }
  // A hand-written table's computed columns are read as their expressions (computed-columns.ts);
  // the export's (it carries its origin comment) are its rowtime only, kept beside the row.
  const computed = t.origin === null && t.computed.length > 0 ? t.computed : [];
  b.relations.set(t.name, {
    nodes: [id],
    rowtime: wm?.column ?? null,
    ...(wm && t.columns.some((c) => c.name === wm.column) ? { rowtimeInRow: true } : {}),
    columns: [...t.columns.map((c) => c.name), ...computed.map((c) => c.name)],
    ...(computed.length > 0 ? { computed: Object.fromEntries(computed.map((c) => [c.name, c.expr])) } : {}),
  });
}

/**
 * A `jdbc` table on PostgreSQL as `sink.postgres`: upsert by its PRIMARY KEY, else append. The
 * password stays out of the job: a `${NAME}` placeholder (Weir's export writes one) names passwordEnv.
 */
function postgresSinkConfig(t: TableStatement): PostgresSinkConfig {
  const rest = (t.options.url ?? '').replace(/^jdbc:postgresql:\/\//, '').replace(/\?.*$/, '');
  const user = t.options.username ? `${encodeURIComponent(t.options.username)}@` : '';
  // Weir's export writes ${PGPASSWORD} for a sink without passwordEnv, and says so in a comment.
  const unnamed = t.notes.some((n) => /the job names no passwordEnv/.test(n));
  const env = unnamed ? undefined : /^\$\{(\w+)\}$/.exec(t.options.password ?? '')?.[1];
  const config: PostgresSinkConfig = {
    url: `postgresql://${user}${rest}`,
    ...(env ? { passwordEnv: env } : {}),
    table: t.options['table-name'] ?? t.name,
    mode: t.primaryKey ? 'upsert' : 'append',
  };
  if (t.primaryKey) config.key = t.primaryKey.join(', ');
  return config;
}

function eventTimeOf(
  b: JobBuilder,
  t: TableStatement,
  rowtimeExpr: string | null,
): FileSourceConfig['eventTime'] | undefined {
  const wm = t.watermark;
  if (!wm) return undefined;
  const direct = t.columns.find((c) => c.name === wm.column);
  // The physical column the rowtime is computed from: the first one the expression mentions (in
  // Weir's export, the first one in its first WHEN: the CSV header test comes later).
  const head = /^\s*CASE\s+WHEN\s+([\s\S]*?)\s+THEN\b/i.exec(rowtimeExpr ?? '')?.[1] ?? rowtimeExpr ?? '';
  let field = direct?.name;
  let at = Infinity;
  for (const c of direct ? [] : t.columns) {
    const m = new RegExp(
      `(^|[^A-Za-z0-9_\`'])\`?${c.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`?([^A-Za-z0-9_\`']|$)`,
    ).exec(head);
    if (m && m.index < at) {
      at = m.index;
      field = c.name;
    }
  }
  if (!field) {
    b.problem(
      t.pos,
      `table '${t.name}': the watermark's column '${wm.column}' is not computed from a physical column; no event time`,
      'error',
    );
    return undefined;
  }
  const delay = -intervalsIn(wm.expr).ms;
  const ooo = Math.max(0, delay - 1);
  return { field, ...(ooo > 0 ? { maxOutOfOrderness: weirDuration(ooo) } : {}) };
}

function importFileSource(b: JobBuilder, t: TableStatement, id: string, rowtimeExpr: string | null): void {
  const format = t.options.format === 'csv' ? 'csv' : t.options.format === 'json' ? 'jsonl' : null;
  if (format === null)
    b.problem(
      t.pos,
      `table '${t.name}': format '${t.options.format ?? ''}' is not one Weir reads (json, csv); read as JSON lines`,
    );
  const config: FileSourceConfig = { path: jobPath(b, t.options.path ?? '', t.pos), format: format ?? 'jsonl' };
  const failsOnBadTime = rowtimeExpr !== null && /CAST\(CONCAT\('bad event time/.test(rowtimeExpr);
  if (t.options[`${format === 'csv' ? 'csv' : 'json'}.ignore-parse-errors`] === 'false' || failsOnBadTime)
    config.onBadRecord = 'fail';
  if (t.options['source.monitor-interval']) config.follow = true;
  const et = eventTimeOf(b, t, rowtimeExpr);
  if (et) config.eventTime = et;
  // Weir's export reads a declared TIMESTAMP column as its text and says so in a comment.
  const declaredTimestamps = new Map<string, string>();
  for (const n of t.notes) {
    const m = /^-- (.+): declared (TIMESTAMP[^;]*); read as its ISO-8601 text/.exec(n);
    if (m) declaredTimestamps.set(m[1], m[2]);
  }
  // The table's columns are declared: Weir then types every value as Flink does (a DOUBLE column's
  // 4 divides as 4.0), and the export writes the same CREATE TABLE again.
  if (t.columns.length > 0)
    config.columns = Object.fromEntries(t.columns.map((c) => [c.name, declaredTimestamps.get(c.name) ?? c.type]));
  b.add({ id, type: fileSource.type, config }, t.pos, t.origin);
}

function importDatagen(b: JobBuilder, t: TableStatement, id: string): void {
  const o = t.options;
  const config: GeneratorSourceConfig = {};
  if (o['number-of-rows']) config.count = Number(o['number-of-rows']);
  const rate = Number(o['rows-per-second'] ?? FAST_ROWS_PER_SECOND);
  if (rate !== FAST_ROWS_PER_SECOND) config.rate = rate;
  if (o[`fields.${KEY_INDEX}.max`] !== undefined) config.keys = Number(o[`fields.${KEY_INDEX}.max`]) + 1;
  const jitter = o[`fields.${JITTER}.max`] !== undefined ? Number(o[`fields.${JITTER}.max`]) : 0;
  if (jitter > 0) config.outOfOrderness = weirDuration(jitter);
  const ts = t.computed.find((c) => c.name === 'ts');
  const m = ts ? /(\d+)\s*\+\s*`?seq`?\s*\*\s*(\d+)/.exec(ts.expr) : null;
  if (m) {
    // Keys at their defaults stay absent, as the exported job had them.
    if (Number(m[1]) !== GENERATOR_DEFAULTS.startTime) config.startTime = Number(m[1]);
    if (Number(m[2]) !== GENERATOR_DEFAULTS.step) config.step = Number(m[2]);
  } else {
    b.problem(
      t.pos,
      `table '${t.name}': datagen fields become Weir's generator records {seq, key, value, ts}; the script's own fields are not reproduced`,
    );
  }
  if (t.watermark) {
    const delay = Math.max(0, -intervalsIn(t.watermark.expr).ms - 1);
    if (delay !== jitter) config.eventTime = { field: 'ts', maxOutOfOrderness: weirDuration(delay) };
  }
  const node: JobNode = { id, type: generatorSource.type, config };
  if (o['scan.parallelism']) node.parallelism = Number(o['scan.parallelism']);
  b.add(node, t.pos, t.origin);
}
