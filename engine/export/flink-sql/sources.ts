import { generatorParams } from '../../connectors/generator-source.ts';
import { GENERATOR_COLUMN_TYPES } from '../../nodes/source-generator/definition.ts';
import type { JobNodeOf } from '../../graph/types.ts';
import type { Col, ExportContext, ExportNode } from './context.ts';
import { rowtimeExpression, watermarkClause } from './event-time.ts';
import { quoteIdent, sqlString, withOptions } from './identifiers.ts';
import { inferFileColumns } from './infer-columns.ts';
import { flinkPath } from './paths.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';
import { generatorSource } from '../../nodes/source-generator/definition.ts';

type FileNode = JobNodeOf<typeof fileSource.type> & { parallelism: number };
type GeneratorNode = JobNodeOf<typeof generatorSource.type> & { parallelism: number };

/** Columns of a file source: declared in its config, given by the caller, or sampled from the data. */
export function fileSourceColumns(ctx: ExportContext, node: FileNode): Col[] {
  const c = node.config;
  const declared = Object.entries(c.columns ?? {}).map(([name, type]) => ({ name, type: type.trim(), certain: true }));
  const given = ctx.opts.inferSchema?.(node);
  const sampled = given ? { ok: true as const, columns: given } : inferFileColumns(c, ctx.job.baseDir);
  let cols: Col[];
  if (sampled.ok) {
    for (const ig of 'ignored' in sampled ? (sampled.ignored ?? []) : []) {
      const type = sampled.columns.find((col) => col.name === ig.column)?.type;
      // Declared with another type: the sample's majority says nothing about that type.
      if (declared.some((d) => d.name === ig.column && d.type.toUpperCase() !== type?.toUpperCase())) continue;
      ctx.warn(
        node,
        'config.columns',
        `column '${ig.column}' is typed ${type} by most sampled values; ${ig.count} other value${ig.count === 1 ? '' : 's'} (first: ${JSON.stringify(ig.value)} on line ${ig.line}) ${ig.count === 1 ? 'is' : 'are'} read as NULL by Flink, as bad values`,
      );
    }
    // The data's own order (a CSV header is read by position); declared types win over sampled ones.
    cols = sampled.columns.map(
      (g) => declared.find((d) => d.name === g.name) ?? { name: g.name, type: g.type, certain: true },
    );
    cols.push(...declared.filter((d) => !cols.some((col) => col.name === d.name)));
  } else if (declared.length > 0) {
    cols = declared;
    if (c.format === 'csv')
      ctx.warn(
        node,
        'config.columns',
        `${sampled.message}; the declared columns must be in the order of the CSV header`,
      );
  } else {
    ctx.warn(
      node,
      'config.columns',
      `${sampled.message}; declare config.columns (name -> Flink SQL type) for a complete CREATE TABLE`,
    );
    cols = [];
  }
  // Weir keeps a TIMESTAMP column's text as it is; Flink's csv and json parsers reject ISO-8601
  // 'T...Z' text for TIMESTAMP columns, so the text is read as STRING and event time derived from it.
  cols = cols.map((col) => (/^TIMESTAMP/i.test(col.type) ? { ...col, type: 'STRING' } : col));
  const et = c.eventTime;
  if (et && !cols.some((col) => col.name === et.field)) {
    ctx.warn(
      node,
      'config.eventTime.field',
      `event-time field '${et.field}' is not among the source's columns; declared as BIGINT epoch milliseconds`,
    );
    cols.push({ name: et.field, type: 'BIGINT', certain: true });
  }
  return cols;
}

/** The generator's records `{seq, key, value, ts}` with the types Weir produces. */
export function generatorColumns(): Col[] {
  return GENERATOR_COLUMN_TYPES.map(([name, type]) => ({ name, type, certain: true }));
}

function parallelismCheck(ctx: ExportContext, node: ExportNode): void {
  if (node.parallelism !== ctx.job.settings.parallelism) {
    ctx.warn(
      node,
      'parallelism',
      `parallelism ${node.parallelism} has no per-table setting for this connector; it runs with parallelism.default (${ctx.job.settings.parallelism})`,
    );
  }
}

export function emitFileSource(ctx: ExportContext, node: FileNode): void {
  const c = node.config;
  const cols = ctx.sourceColumns.get(node.id) ?? [];
  const lines = cols.map((col) => `  ${quoteIdent(col.name)} ${col.type}`);
  const comments: string[] = [ctx.origin(node)];
  const csv = c.format === 'csv';
  const onBad = c.onBadRecord === 'fail' ? 'fail' : 'skip';
  // Flink's csv format knows no header: the header line arrives as a record whose text columns
  // hold their own names (numeric ones fail to parse: NULL). The source's view drops it.
  const header = csv
    ? cols
        .map((col) =>
          col.type === 'STRING'
            ? `COALESCE(${quoteIdent(col.name)} = ${sqlString(col.name)}, FALSE)`
            : `${quoteIdent(col.name)} IS NULL`,
        )
        .join(' AND ')
    : null;
  const filters: string[] = [];
  if (header) filters.push(`NOT (${header})`);
  let rowtime: string | null = null;
  if (c.eventTime) {
    rowtime = ctx.rowtimeName;
    const rt = rowtimeExpression(
      c.eventTime.field,
      cols.find((col) => col.name === c.eventTime!.field),
      onBad,
      header ?? undefined,
    );
    if (rt.note) comments.push(`-- ${rt.note}`);
    comments.push(
      `-- A record with a missing or malformed ${c.eventTime.field} ${
        onBad === 'fail'
          ? 'fails the job, as in Weir (onBadRecord fail).'
          : `is skipped, as in Weir: ${quoteIdent(rowtime)} maps it to epoch 0 (never NULL) and the view drops it.`
      }`,
    );
    lines.push(`  ${quoteIdent(rowtime)} AS ${rt.expr}`, `  ${watermarkClause(rowtime, c.eventTime)}`);
    if (onBad === 'skip') filters.push(`COALESCE(${rt.valid}, FALSE)`);
  }
  for (const [col, type] of Object.entries(c.columns ?? {})) {
    if (/^TIMESTAMP/i.test(type))
      comments.push(
        `-- ${col}: declared ${type}; read as its ISO-8601 text (STRING) as Weir does, the event time is derived from it.`,
      );
  }
  const format = csv ? 'csv' : 'json';
  const options: Array<[string, string]> = [
    ['connector', 'filesystem'],
    ['path', flinkPath(ctx, c.path, ctx.path(node.id, 'config.path'), node.id)],
    ['format', format],
  ];
  // A CSV file's header line reaches Flink as a record, and must be skippable even with 'fail'.
  const skipBad = csv || c.onBadRecord !== 'fail';
  options.push([`${format}.ignore-parse-errors`, String(skipBad)]);
  if (skipBad)
    comments.push('-- onBadRecord skip: Flink skips unparsable lines and sets fields of the wrong type to NULL.');
  if (csv && c.onBadRecord === 'fail') {
    ctx.warn(
      node,
      'config.onBadRecord',
      "onBadRecord 'fail': Flink's csv format must skip parse errors to get past the header line, so bad lines are skipped instead of failing the job (a bad event time still fails it)",
    );
  }
  if (csv) comments.push("-- Columns in the order of the CSV header; Flink's csv format reads by position.");
  if (c.follow) {
    options.push(['source.monitor-interval', '1 s']);
    ctx.warn(
      node,
      'config.follow',
      "follow: Flink's filesystem source discovers new files in a folder (source.monitor-interval) but does not tail lines appended to a file it has read",
    );
  }
  parallelismCheck(ctx, node);
  const name = quoteIdent(node.id);
  const table = filters.length > 0 ? quoteIdent(`${node.id}__${csv ? 'csv' : 'raw'}`) : name;
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${table} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  if (filters.length > 0) {
    const select = [...cols.map((col) => quoteIdent(col.name)), ...(rowtime ? [quoteIdent(rowtime)] : [])];
    const why = [
      header ? 'the CSV header line' : '',
      rowtime && onBad === 'skip' ? 'records without a valid event time' : '',
    ]
      .filter((x) => x)
      .join(' and ');
    ctx.emit(
      `${ctx.origin(node)}: without ${why}\nCREATE VIEW ${name} AS\nSELECT ${select.join(', ')}\nFROM ${table}\nWHERE ${filters.join('\n  AND ')};`,
    );
  }
  ctx.relations.set(node.id, { sql: name, columns: cols, rowtime });
}

/**
 * Flink's datagen SEQUENCE generator keeps its whole range in memory (a deque filled when the
 * source opens), so an unbounded generator gets a capped sequence rather than an exhausted heap.
 */
export const UNBOUNDED_SEQUENCE_CAP = 10_000_000;
const KEY_INDEX = 'weir_key_index';
const JITTER = 'weir_ts_jitter';
/** datagen's own default; Weir without `rate` runs as fast as it can. */
const FAST_ROWS_PER_SECOND = 1_000_000;

export function emitGeneratorSource(ctx: ExportContext, node: GeneratorNode): void {
  const p = generatorParams(node.config);
  const comments: string[] = [
    ctx.origin(node),
    "-- seq, the key range, value range and ts = startTime + seq * step - jitter follow Weir's generator;",
    "-- datagen has no seed, so the random key, value and jitter of each seq differ from Weir's run.",
  ];
  ctx.warn(
    node,
    'config.seed',
    "datagen has no seed: key, value and ts jitter are random per run and differ from Weir's deterministic records (seq, ranges and rates match)",
  );
  const tsExpr = `${p.startTime} + ${quoteIdent('seq')} * ${p.step}${p.outOfOrderness > 0 ? ` - ${JITTER}` : ''}`;
  const lines = [
    '  seq BIGINT',
    `  ${KEY_INDEX} INT`,
    '  `value` BIGINT',
    ...(p.outOfOrderness > 0 ? [`  ${JITTER} BIGINT`] : []),
    `  \`key\` AS CONCAT('k', CAST(${KEY_INDEX} AS STRING))`,
    `  ts AS CAST(${tsExpr} AS BIGINT)`,
  ];
  // Weir's generator always stamps records with ts, watermarked by eventTime.maxOutOfOrderness or,
  // without eventTime, by its own outOfOrderness (engine/connectors/sources.ts).
  const rowtime = ctx.rowtimeName;
  const et = node.config.eventTime;
  const delay = et?.maxOutOfOrderness ?? (et ? 0 : p.outOfOrderness);
  // A computed column may not refer to another computed column, hence ts's formula repeated.
  lines.push(
    `  ${quoteIdent(rowtime)} AS TO_TIMESTAMP_LTZ(${tsExpr}, 3)`,
    `  ${watermarkClause(rowtime, { field: 'ts', maxOutOfOrderness: delay })}`,
  );
  const options: Array<[string, string]> = [['connector', 'datagen']];
  if (p.count !== null) options.push(['number-of-rows', String(p.count)]);
  if (p.rate !== null) {
    const perSecond = Math.max(1, Math.round(p.rate));
    if (perSecond !== p.rate)
      ctx.warn(
        node,
        'config.rate',
        `rate ${p.rate}/s: datagen's rows-per-second is a whole number; ${perSecond} is used`,
      );
    options.push(['rows-per-second', String(perSecond)]);
  } else {
    comments.push(`-- Weir: as fast as possible; datagen always throttles, here to ${FAST_ROWS_PER_SECOND} rows/s.`);
    options.push(['rows-per-second', String(FAST_ROWS_PER_SECOND)]);
  }
  const end = p.count !== null ? Math.max(0, p.count - 1) : UNBOUNDED_SEQUENCE_CAP - 1;
  if (p.count === null) {
    comments.push(
      `-- Unbounded in Weir; datagen's sequence holds its range in memory, so it stops after ${UNBOUNDED_SEQUENCE_CAP} rows: raise fields.seq.end as memory allows.`,
    );
    ctx.warn(
      node,
      'config.count',
      `unbounded generator: Flink's datagen sequence field keeps its whole range in memory, so the export stops after ${UNBOUNDED_SEQUENCE_CAP} rows (fields.seq.end)`,
    );
  }
  options.push(['fields.seq.kind', 'sequence'], ['fields.seq.start', '0'], ['fields.seq.end', String(end)]);
  options.push(
    [`fields.${KEY_INDEX}.kind`, 'random'],
    [`fields.${KEY_INDEX}.min`, '0'],
    [`fields.${KEY_INDEX}.max`, String(p.keys - 1)],
  );
  options.push(['fields.value.kind', 'random'], ['fields.value.min', '0'], ['fields.value.max', '999']);
  if (p.outOfOrderness > 0) {
    options.push(
      [`fields.${JITTER}.kind`, 'random'],
      [`fields.${JITTER}.min`, '0'],
      [`fields.${JITTER}.max`, String(p.outOfOrderness)],
    );
  }
  if (node.parallelism !== ctx.job.settings.parallelism) options.push(['scan.parallelism', String(node.parallelism)]);
  const name = quoteIdent(node.id);
  ctx.emit(`${comments.join('\n')}\nCREATE TABLE ${name} (\n${lines.join(',\n')}\n) ${withOptions(options)};`);
  ctx.relations.set(node.id, { sql: name, columns: generatorColumns(), rowtime });
}
