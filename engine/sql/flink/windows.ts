import { parseDuration } from '../../graph/units.ts';
import type { JobNodeOf } from '../../graph/types.ts';
import type { Col, ExportContext, Relation } from './context.ts';
import { splitSelectList, type SelectItem } from './expressions.ts';
import { quoteIdent, unquoteIdent } from './identifiers.ts';
import { intervalLiteral } from './intervals.ts';

type WindowNode = JobNodeOf<'window'> & { parallelism: number };

/** Weir writes window bounds as ISO-8601 UTC text with milliseconds; so does the export. */
const ISO_FORMAT = "'yyyy-MM-dd''T''HH:mm:ss.SSS''Z'''";
const TVF_COLUMNS = ['window_start', 'window_end', 'window_time'];

/**
 * A window node as a window aggregation. Tumbling and aligned sliding windows use the window
 * table-valued functions TUMBLE and HOP (`HOP(..., slide, size)`: slide first). Session windows and
 * sliding windows whose size is not a multiple of the slide (which Flink's sliced HOP aggregation
 * rejects) use the group-window functions SESSION(...) / HOP(...) in GROUP BY, which Flink 1.19 still
 * runs with the same results; Flink 1.19's SESSION table function is not used because SQL tooling
 * (dt-sql-parser's Flink grammar, used to check this export) does not parse it yet.
 */
export function emitWindow(ctx: ExportContext, node: WindowNode, input: Relation): Relation | null {
  const c = node.config;
  if (!input.rowtime) {
    ctx.warn(node, undefined, 'its input has no event time in the exported script; the window and everything after it is left out');
    return null;
  }
  const keys = (c.keyBy ?? '').split(',').map((k) => unquoteIdent(k)).filter((k) => k !== '');
  const aggs = splitSelectList(c.aggregates, input.columns, { avgAsDouble: true });
  for (const a of aggs) {
    if (a.generatedName) ctx.warn(node, 'config.aggregates', `'${a.expr}' has no alias; Flink names it ${a.name}`);
  }
  const lateness = c.allowedLateness === undefined ? 0 : parseDuration(c.allowedLateness);
  const comments = [ctx.origin(node)];
  if (lateness > 0) {
    ctx.warn(node, 'config.allowedLateness', `allowedLateness ${lateness} ms has no equivalent in Flink SQL window aggregations: records behind the watermark are dropped and windows fire once`);
    comments.push(`-- allowedLateness ${lateness} ms is not exported: Flink SQL windows fire once and drop later records.`,
      '-- (table.exec.emit.allow-lateness exists but is experimental and not used here.)');
  }
  const w = c.window;
  const keyCols = keys.map((k) => input.columns.find((col) => col.name === k) ?? { name: k, type: 'STRING', certain: false });
  const columns: Col[] = [
    { name: 'window_start', type: 'STRING', certain: true },
    { name: 'window_end', type: 'STRING', certain: true },
    ...keyCols,
    ...aggs.map((a) => ({ name: a.name, type: a.type, certain: a.certain })),
  ];
  const rowtime = ctx.rowtimeName;
  const rt = quoteIdent(input.rowtime);
  const name = quoteIdent(node.id);
  const keyList = keys.map(quoteIdent);
  let sql: string;
  if (w.kind === 'session' || (w.kind === 'sliding' && parseDuration(w.size) % parseDuration(w.slide) !== 0)) {
    const fn = w.kind === 'session' ? 'SESSION' : 'HOP';
    const args = w.kind === 'session'
      ? `${rt}, ${intervalLiteral(parseDuration(w.gap))}`
      : `${rt}, ${intervalLiteral(parseDuration(w.slide))}, ${intervalLiteral(parseDuration(w.size))}`;
    if (w.kind === 'sliding') comments.push('-- size is not a multiple of slide: the HOP group window, which allows that.');
    else comments.push(`-- Flink 1.19+ equivalent: TABLE(SESSION(TABLE ${input.sql}${keyList.length ? ` PARTITION BY ${keyList.join(', ')}` : ''}, DESCRIPTOR(${rt}), ${intervalLiteral(parseDuration(w.gap))})).`);
    const bound = (b: 'START' | 'END') => `DATE_FORMAT(CAST(${fn}_${b}(${args}) AS TIMESTAMP(3)), ${ISO_FORMAT})`;
    sql = selectList([`${bound('START')} AS window_start`, `${bound('END')} AS window_end`], keyList, aggs,
      `${fn}_ROWTIME(${args}) AS ${quoteIdent(rowtime)}`)
      + `\nFROM ${input.sql}\nGROUP BY ${[`${fn}(${args})`, ...keyList].join(', ')};`;
  } else {
    const source = tvfInput(ctx, node, input, keys, aggs);
    const tvf = w.kind === 'tumbling'
      ? `TUMBLE(TABLE ${source}, DESCRIPTOR(${rt}), ${intervalLiteral(parseDuration(w.size))})`
      : `HOP(TABLE ${source}, DESCRIPTOR(${rt}), ${intervalLiteral(parseDuration(w.slide))}, ${intervalLiteral(parseDuration(w.size))})`;
    sql = selectList([`DATE_FORMAT(window_start, ${ISO_FORMAT}) AS window_start`, `DATE_FORMAT(window_end, ${ISO_FORMAT}) AS window_end`],
      keyList, aggs, `window_time AS ${quoteIdent(rowtime)}`)
      + `\nFROM TABLE(\n  ${tvf})\nGROUP BY ${['window_start', 'window_end', 'window_time', ...keyList].join(', ')};`;
  }
  ctx.emit(`${comments.join('\n')}\nCREATE VIEW ${name} AS\n${sql}`);
  return { sql: name, columns, rowtime };
}

function selectList(bounds: string[], keys: string[], aggs: SelectItem[], time: string): string {
  const items = [...bounds, ...keys, ...aggs.map((a) => `${a.expr} AS ${quoteIdent(a.name)}`), time];
  return `SELECT\n${items.map((i) => '  ' + i).join(',\n')}`;
}

/**
 * A window table function adds window_start, window_end and window_time to its input, which must not
 * have columns of those names already (an upstream window's output has). They are left out of a
 * helper view when nothing in this window reads them.
 */
function tvfInput(ctx: ExportContext, node: WindowNode, input: Relation, keys: string[], aggs: SelectItem[]): string {
  const clash = input.columns.filter((c) => TVF_COLUMNS.includes(c.name));
  if (clash.length === 0) return input.sql;
  const used = clash.filter((c) => keys.includes(c.name) || aggs.some((a) => a.expr.includes(c.name)));
  if (used.length > 0) {
    ctx.warn(node, 'config', `reads ${used.map((c) => c.name).join(', ')} from its input, names that Flink's window functions reserve for their own columns`);
  }
  const keep = input.columns.filter((c) => !TVF_COLUMNS.includes(c.name)).map((c) => quoteIdent(c.name));
  const view = quoteIdent(`${node.id}__input`);
  ctx.emit(`${ctx.origin(node)}: its input without ${clash.map((c) => c.name).join(', ')}, which the window function adds itself\n`
    + `CREATE VIEW ${view} AS\nSELECT ${[...keep, quoteIdent(input.rowtime!)].join(', ')}\nFROM ${input.sql};`);
  return view;
}
