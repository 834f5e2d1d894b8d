import { parseDuration } from '../../graph/units.ts';
import type { JobNodeOf } from '../../graph/types.ts';
import type { Col, ExportContext, Relation } from './context.ts';
import { splitSelectList, type SelectItem } from './expressions.ts';
import { quoteIdent, unquoteIdent } from './identifiers.ts';
import { intervalLiteral } from './intervals.ts';
import { EXACT_DOUBLE_SUM_NOTE } from '../../graph/semantics-warnings.ts';
import { filtersAsCase } from './aggregate-filters.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';

type WindowNode = JobNodeOf<typeof windowNode.type> & { parallelism: number };

const TVF_COLUMNS = ['window_start', 'window_end', 'window_time'];

/**
 * A window node as a window aggregation. Tumbling and aligned sliding windows use the window
 * table-valued functions TUMBLE and HOP (`HOP(..., slide, size)`: slide first). Session windows and
 * sliding windows whose size is not a multiple of the slide (which Flink's sliced HOP aggregation
 * rejects) use the group-window functions SESSION(...) / HOP(...) in GROUP BY, which Flink 1.19 still
 * runs with the same results; Flink 1.19's SESSION table function is not used because SQL tooling
 * (dt-sql-parser's Flink grammar, used to check this export) does not parse it yet.
 *
 * A changelog input (Weir's window retracts -U/-D rows) needs no version warning: window TVF
 * aggregation consumes updates since Flink 1.19 (FLINK-20281, apache/flink#24030) and the group
 * window functions since 1.13 (FLINK-20487), and every targeted version (versions.ts) is 1.19 or
 * later. A changelog made inside the job (an aggregate's result) has no time attribute in Flink,
 * so such a window is left out with the warning below, as any input without event time.
 */
export function emitWindow(ctx: ExportContext, node: WindowNode, input: Relation): Relation | null {
  const c = node.config;
  if (!input.rowtime) {
    ctx.warn(
      node,
      undefined,
      'its input has no event time in the exported script; the window and everything after it is left out',
    );
    return null;
  }
  const keys = (c.keyBy ?? '')
    .split(',')
    .map((k) => unquoteIdent(k))
    .filter((k) => k !== '');
  const w = c.window;
  const useTvf =
    w.kind === 'tumbling' || (w.kind === 'sliding' && parseDuration(w.size) % parseDuration(w.slide) === 0);
  const rename = useTvf ? clashRenames(input) : new Map<string, string>();
  const aggs = splitSelectList(filtersAsCase(c.aggregates), input.columns, { rename });
  for (const a of aggs) {
    if (a.generatedName) ctx.warn(node, 'config.aggregates', `'${a.expr}' has no alias; Flink names it ${a.name}`);
    const fn = /^\s*(SUM|AVG)\s*\(/i.exec(a.expr)?.[1]?.toUpperCase();
    if (fn && ctx.planner.output(node.id, a.name) === 'DOUBLE')
      ctx.warn(node, 'config.aggregates', `${a.expr} AS ${a.name} sums a DOUBLE: ${EXACT_DOUBLE_SUM_NOTE}`);
  }
  const lateness = c.allowedLateness === undefined ? 0 : parseDuration(c.allowedLateness);
  const comments = [ctx.origin(node)];
  if (lateness > 0) {
    ctx.warn(
      node,
      'config.allowedLateness',
      `allowedLateness ${lateness} ms has no equivalent in Flink SQL window aggregations: records behind the watermark are dropped and windows fire once`,
    );
    comments.push(
      `-- allowedLateness ${lateness} ms is not exported: Flink SQL windows fire once and drop later records.`,
      '-- (table.exec.emit.allow-lateness exists but is experimental and not used here.)',
    );
  }
  // Typed by the planner (index.ts): window_start and window_end are TIMESTAMP(3), as in Flink.
  const columns: Col[] = ['window_start', 'window_end', ...keys, ...aggs.map((a) => a.name)].map((name) => ({
    name,
    type: 'STRING',
    certain: false,
  }));
  const rowtime = ctx.rowtimeName;
  const rt = quoteIdent(input.rowtime);
  const name = quoteIdent(node.id);
  const keyList = keys.map((k) => quoteIdent(rename.get(k) ?? k));
  let sql: string;
  if (!useTvf) {
    const fn = w.kind === 'session' ? 'SESSION' : 'HOP';
    const args =
      w.kind === 'session'
        ? `${rt}, ${intervalLiteral(parseDuration(w.gap))}`
        : `${rt}, ${intervalLiteral(parseDuration(w.slide))}, ${intervalLiteral(parseDuration(w.size))}`;
    if (w.kind === 'sliding')
      comments.push('-- size is not a multiple of slide: the HOP group window, which allows that.');
    else
      comments.push(
        `-- Flink 1.19+ equivalent: TABLE(SESSION(TABLE ${input.sql}${keyList.length ? ` PARTITION BY ${keyList.join(', ')}` : ''}, DESCRIPTOR(${rt}), ${intervalLiteral(parseDuration(w.gap))})).`,
      );
    const bound = (b: 'START' | 'END') => `CAST(${fn}_${b}(${args}) AS TIMESTAMP(3))`;
    sql =
      selectList(
        [`${bound('START')} AS window_start`, `${bound('END')} AS window_end`],
        keyList,
        keys,
        aggs,
        `${fn}_ROWTIME(${args}) AS ${quoteIdent(rowtime)}`,
      ) + `\nFROM ${input.sql}\nGROUP BY ${[`${fn}(${args})`, ...keyList].join(', ')};`;
  } else {
    const source = tvfInput(ctx, node, input, rename);
    const tvf =
      w.kind === 'tumbling'
        ? `TUMBLE(TABLE ${source}, DESCRIPTOR(${rt}), ${intervalLiteral(parseDuration(w.size))})`
        : `HOP(TABLE ${source}, DESCRIPTOR(${rt}), ${intervalLiteral(parseDuration(w.slide))}, ${intervalLiteral(parseDuration(w.size))})`;
    sql =
      selectList(['window_start', 'window_end'], keyList, keys, aggs, `window_time AS ${quoteIdent(rowtime)}`) +
      `\nFROM TABLE(\n  ${tvf})\nGROUP BY ${['window_start', 'window_end', 'window_time', ...keyList].join(', ')};`;
  }
  ctx.emit(`${comments.join('\n')}\nCREATE VIEW ${name} AS\n${sql}`);
  return { sql: name, columns, rowtime };
}

function selectList(bounds: string[], keys: string[], keyNames: string[], aggs: SelectItem[], time: string): string {
  const keyItems = keys.map((k, i) => (k === quoteIdent(keyNames[i]) ? k : `${k} AS ${quoteIdent(keyNames[i])}`));
  const items = [...bounds, ...keyItems, ...aggs.map((a) => `${a.expr} AS ${quoteIdent(a.name)}`), time];
  return `SELECT\n${items.map((i) => '  ' + i).join(',\n')}`;
}

/**
 * A window table function adds window_start, window_end and window_time to its input, which must not
 * have columns of those names already (an upstream window's output has): such columns are renamed
 * in a helper view and the keys and aggregates read them under the new name.
 */
function clashRenames(input: Relation): Map<string, string> {
  const taken = new Set(input.columns.map((c) => c.name));
  const rename = new Map<string, string>();
  for (const c of input.columns) {
    if (!TVF_COLUMNS.includes(c.name)) continue;
    let name = `input_${c.name}`;
    for (let i = 1; taken.has(name); i++) name = `input_${c.name}_${i}`;
    taken.add(name);
    rename.set(c.name, name);
  }
  return rename;
}

function tvfInput(ctx: ExportContext, node: WindowNode, input: Relation, rename: Map<string, string>): string {
  if (rename.size === 0) return input.sql;
  const cols = input.columns.map((c) =>
    rename.has(c.name) ? `${quoteIdent(c.name)} AS ${quoteIdent(rename.get(c.name)!)}` : quoteIdent(c.name),
  );
  const view = quoteIdent(`${node.id}__renamed`);
  ctx.emit(
    `${ctx.origin(node)}: its input with ${[...rename.keys()].join(', ')} renamed, names the window function gives its own columns\n` +
      `CREATE VIEW ${view} AS\nSELECT ${[...cols, quoteIdent(input.rowtime!)].join(', ')}\nFROM ${input.sql};`,
  );
  return view;
}
