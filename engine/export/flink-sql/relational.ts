/**
 * The relational nodes in Flink SQL:
 * - `aggregate` -> `SELECT keys, aggs FROM input GROUP BY keys` (a regular group aggregation; an
 *   updating result, as Weir's changelog);
 * - `topn` -> `ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) AS rownum` filtered by
 *   `rownum <= N` (Flink's Top-N), `rownum = 1` for limit 1 (deduplication);
 * - `join.interval` -> an interval join: equal keys and
 *   `L.rowtime BETWEEN R.rowtime + lower AND R.rowtime + upper`;
 * - `join.window` -> a window join: TUMBLE/HOP on both inputs, joined on keys and window bounds
 *   (session windows: the SESSION table function, written as a comment, see `emitSessionCommented`);
 * - `join` -> `L [LEFT|RIGHT|FULL OUTER] JOIN R ON keys` (outer joins: an updating result).
 * None of their outputs keeps an event-time attribute in the script (Weir's join result time is
 * the larger of the two, which Flink cannot declare as a time attribute), so a window after them is
 * left out with a warning by the window exporter.
 */
import type { JobNodeOf } from '../../graph/types.ts';
import { splitTopLevel } from '../../graph/expressions.ts';
import { tokenize } from '../../sql/lexer.ts';
import { compileJoinSelect } from '../../sql/join-select.ts';
import { compileOrderBy } from '../../sql/order-by.ts';
import { parseKeyBy } from '../../sql/index.ts';
import { filtersAsCase } from './aggregate-filters.ts';
import { parseSignedDuration } from '../../graph/signed-duration.ts';
import type { Col, ExportContext, ExportNode, Relation } from './context.ts';
import { rewriteExpr, splitSelectList } from './expressions.ts';
import { quoteIdent } from './identifiers.ts';
import { intervalLiteral } from './intervals.ts';
import { feedsTimedNode, resultTimeSide } from './interval-join-time.ts';
import { aggregate as aggregateNode } from '../../nodes/aggregate/definition.ts';
import { join as joinNode } from '../../nodes/join/definition.ts';
import { intervalJoin } from '../../nodes/join-interval/definition.ts';
import { windowJoin } from '../../nodes/join-window/definition.ts';
import { topn as topnNode } from '../../nodes/topn/definition.ts';

type N<
  T extends
    | typeof aggregateNode.type
    | typeof topnNode.type
    | typeof intervalJoin.type
    | typeof windowJoin.type
    | typeof joinNode.type,
> = JobNodeOf<T> & {
  parallelism: number;
};

const RANK = 'rownum';

export function emitAggregate(ctx: ExportContext, node: N<typeof aggregateNode.type>, input: Relation): Relation {
  const c = node.config;
  const keys = parseKeyBy(c.keyBy).columns;
  const aggs = splitSelectList(filtersAsCase(c.aggregates), input.columns);
  for (const a of aggs)
    if (a.generatedName) ctx.warn(node, 'config.aggregates', `'${a.expr}' has no alias; Flink names it ${a.name}`);
  const comments = [
    ctx.origin(node),
    '-- A group aggregation: an updating result (Weir emits it as a changelog: +I, -U, +U).',
  ];
  if (c.stateTtl !== undefined) {
    const ttl = parseSignedDuration(c.stateTtl);
    ctx.warn(
      node,
      'config.stateTtl',
      `stateTtl ${ttl} ms is event time in Weir; Flink's table.exec.state.ttl is processing time and job-wide (not set here)`,
    );
  }
  const items = [...keys.map(quoteIdent), ...aggs.map((a) => `${a.expr} AS ${quoteIdent(a.name)}`)];
  const name = quoteIdent(node.id);
  ctx.emit(
    `${comments.join('\n')}\nCREATE VIEW ${name} AS\nSELECT\n${items.map((i) => '  ' + i).join(',\n')}\nFROM ${input.sql}\nGROUP BY ${keys.map(quoteIdent).join(', ')};`,
  );
  return { sql: name, columns: untyped([...keys, ...aggs.map((a) => a.name)]), rowtime: null, changelog: true };
}

export function emitTopN(ctx: ExportContext, node: N<typeof topnNode.type>, input: Relation): Relation | null {
  const c = node.config;
  if (c.window) return emitWindowTopN(ctx, node, input);
  const keys = parseKeyBy(c.partitionBy).columns.map(quoteIdent);
  const order = compileOrderBy(c.orderBy).items.map(
    (i) => `${rewriteExpr(i.expr, input.columns)} ${i.desc ? 'DESC' : 'ASC'}`,
  );
  const dedup = c.limit === 1;
  const comments = [
    ctx.origin(node),
    dedup
      ? `-- Deduplication (limit 1): keeps the ${/\bDESC$/.test(order[0]) ? 'last' : 'first'} row per partition in this order (Flink's Top-1 / deduplication pattern).`
      : `-- Top-N: the first ${c.limit} rows per partition; an updating result (Weir emits it as a changelog).`,
  ];
  const cols = input.columns.map((col) => quoteIdent(col.name));
  const inner = [
    ...cols,
    ...(input.rowtime ? [quoteIdent(input.rowtime)] : []),
    `ROW_NUMBER() OVER (PARTITION BY ${keys.join(', ')} ORDER BY ${order.join(', ')}) AS ${RANK}`,
  ];
  const name = quoteIdent(node.id);
  ctx.emit(
    `${comments.join('\n')}\nCREATE VIEW ${name} AS\nSELECT ${[...cols, RANK].join(', ')}\nFROM (\n  SELECT\n${inner.map((i) => '    ' + i).join(',\n')}\n  FROM ${input.sql}\n)\nWHERE ${dedup ? `${RANK} = 1` : `${RANK} <= ${c.limit}`};`,
  );
  return {
    sql: name,
    columns: untyped([...input.columns.map((col) => col.name), RANK]),
    rowtime: null,
    changelog: true,
  };
}

/** Window Top-N: ROW_NUMBER over a window table function, partitioned by the window bounds too. */
function emitWindowTopN(ctx: ExportContext, node: N<typeof topnNode.type>, input: Relation): Relation | null {
  const c = node.config;
  const w = c.window!;
  if (!input.rowtime) {
    ctx.warn(
      node,
      undefined,
      'its input has no event time in the exported script; the window Top-N and everything after it is left out',
    );
    return null;
  }
  const keys = parseKeyBy(c.partitionBy).columns.map(quoteIdent);
  const order = compileOrderBy(c.orderBy).items.map(
    (i) => `${rewriteExpr(i.expr, input.columns)} ${i.desc ? 'DESC' : 'ASC'}`,
  );
  const rt = quoteIdent(input.rowtime);
  const tvf =
    w.kind === 'tumbling'
      ? `TUMBLE(TABLE ${input.sql}, DESCRIPTOR(${rt}), ${intervalLiteral(parseSignedDuration(w.size))})`
      : w.kind === 'sliding'
        ? `HOP(TABLE ${input.sql}, DESCRIPTOR(${rt}), ${intervalLiteral(parseSignedDuration(w.slide))}, ${intervalLiteral(parseSignedDuration(w.size))})`
        : sessionTvf(input, keys, parseSignedDuration(w.gap));
  const cols = input.columns.map((col) => quoteIdent(col.name));
  const outer = ['window_start', 'window_end', ...cols, RANK];
  const inner = [
    ...cols,
    'window_start',
    'window_end',
    `ROW_NUMBER() OVER (PARTITION BY ${['window_start', 'window_end', ...keys].join(', ')} ORDER BY ${order.join(', ')}) AS ${RANK}`,
  ];
  const name = quoteIdent(node.id);
  const head = `${ctx.origin(node)}\n-- Window Top-N: the first ${c.limit} rows per partition and window, emitted when the window closes (append-only).`;
  const view =
    `CREATE VIEW ${name} AS\nSELECT ${outer.join(', ')}\nFROM (\n  SELECT\n${inner.map((i) => '    ' + i).join(',\n')}\n  FROM TABLE(\n    ${tvf})\n)\n` +
    `WHERE ${c.limit === 1 ? `${RANK} = 1` : `${RANK} <= ${c.limit}`};`;
  if (w.kind === 'session') return emitSessionCommented(ctx, node, head, view, 'session window Top-N');
  ctx.emit(`${head}\n${view}`);
  return {
    sql: name,
    columns: untyped(['window_start', 'window_end', ...input.columns.map((col) => col.name), RANK]),
    rowtime: null,
  };
}

/** A relation's columns by name; index.ts gives them the planner's types. */
function untyped(names: readonly string[]): Col[] {
  return names.map((name) => ({ name, type: 'STRING', certain: false }));
}

/**
 * `L.x` -> `L.x` with x quoted where needed; a window join's bare `window_start` / `window_end`
 * become the left side's window bounds (TIMESTAMP(3), as the planner types them); the rest stays.
 */
function qualify(text: string, windowBounds = false): string {
  const toks = tokenize(text);
  let out = '';
  let pos = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k],
      dot = toks[k + 1],
      col = toks[k + 2];
    if (
      t.kind === 'ident' &&
      (t.text === 'L' || t.text === 'R') &&
      dot?.text === '.' &&
      col &&
      (col.kind === 'ident' || col.kind === 'quoted')
    ) {
      const name = col.kind === 'quoted' ? col.text.slice(1, -1) : col.text;
      out += text.slice(pos, t.start) + `${t.text}.${quoteIdent(name)}`;
      pos = col.end;
      k += 2;
    } else if (
      windowBounds &&
      t.kind === 'ident' &&
      (t.text === 'window_start' || t.text === 'window_end') &&
      toks[k - 1]?.text !== '.'
    ) {
      out += text.slice(pos, t.start) + `L.${t.text}`;
      pos = t.end;
    }
  }
  return out + text.slice(pos);
}

/** Flink 1.19+'s SESSION window table function, sessions per `keys` (`PARTITION BY`). */
function sessionTvf(rel: Relation, keys: string[], gap: number): string {
  return `SESSION(TABLE ${rel.sql} PARTITION BY ${keys.join(', ')}, DESCRIPTOR(${quoteIdent(rel.rowtime!)}), ${intervalLiteral(gap)})`;
}

/**
 * A session window join or Top-N. Every targeted Flink version (1.19, 1.20, 2.x) runs both over the
 * SESSION window table function in streaming mode (FLIP-392, Flink 1.19; the window join and window
 * Top-N docs of FLINK-34313 say only batch mode lacks them), so no version warning is needed. As for the window node (windows.ts), the
 * SESSION table function is not written as a statement because SQL tooling (dt-sql-parser's Flink
 * grammar, which checks this export) does not parse it; and unlike the window node there is no
 * group-window form to fall back on. So the view is written as a comment to uncomment, and the node
 * and what follows it are left out, with a warning.
 */
function emitSessionCommented(ctx: ExportContext, node: ExportNode, head: string, view: string, what: string): null {
  ctx.warn(
    node,
    'config.window',
    `a ${what} needs Flink's SESSION window table function (Flink 1.19+), which SQL tooling does not parse yet: ` +
      'the view is written as a comment to uncomment; it and everything after it are left out of the script',
  );
  ctx.emit(
    `${head}\n-- Left out: uncomment to run on Flink 1.19+ (SESSION window table function).\n` +
      view
        .split('\n')
        .map((l) => `-- ${l}`)
        .join('\n'),
  );
  return null;
}

const ALIAS = /\s+AS\s+(`[^`]+`|"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)\s*$/i;

function bound(rt: string, ms: number): string {
  return ms === 0 ? rt : ms > 0 ? `${rt} + ${intervalLiteral(ms)}` : `${rt} - ${intervalLiteral(-ms)}`;
}

/** The select list of a join as SQL items with their output columns. */
function joinSelect(text: string, windowBounds: boolean): { items: string[]; columns: Col[] } {
  const sel = compileJoinSelect(text, { windowColumns: windowBounds });
  const parts = splitTopLevel(text).map((item) => item.replace(ALIAS, ''));
  const items = parts.map((e, i) => `${qualify(e, windowBounds)} AS ${quoteIdent(sel.columns[i])}`);
  return { items, columns: untyped(sel.columns) };
}

function keyCondition(leftKey: string, rightKey: string): string[] {
  const lk = parseKeyBy(leftKey).columns,
    rk = parseKeyBy(rightKey).columns;
  return lk.map((k, i) => `L.${quoteIdent(k)} = R.${quoteIdent(rk[i])}`);
}

const JOIN_KEYWORDS = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL OUTER JOIN' } as const;

export function emitRegularJoin(
  ctx: ExportContext,
  node: N<typeof joinNode.type>,
  left: Relation,
  right: Relation,
): Relation {
  const c = node.config;
  const { items, columns } = joinSelect(c.select, false);
  const comments = [
    ctx.origin(node),
    c.kind === 'inner'
      ? '-- A regular inner join (append-only on append-only inputs).'
      : `-- A regular ${c.kind} outer join: an updating result (Weir emits a changelog: a NULL-padded row is retracted on its first match).`,
  ];
  if (c.stateTtl !== undefined) {
    ctx.warn(
      node,
      'config.stateTtl',
      `stateTtl ${parseSignedDuration(c.stateTtl)} ms is event time in Weir; Flink's table.exec.state.ttl is processing time and job-wide (not set here)`,
    );
  }
  const name = quoteIdent(node.id);
  ctx.emit(
    `${comments.join('\n')}\nCREATE VIEW ${name} AS\nSELECT\n${items.map((i) => '  ' + i).join(',\n')}\n` +
      `FROM ${left.sql} AS L\n${JOIN_KEYWORDS[c.kind]} ${right.sql} AS R\n  ON ${keyCondition(c.leftKey, c.rightKey).join(' AND ')};`,
  );
  return { sql: name, columns, rowtime: null, ...(c.kind !== 'inner' ? { changelog: true } : {}) };
}

export function emitWindowJoin(
  ctx: ExportContext,
  node: N<typeof windowJoin.type>,
  left: Relation,
  right: Relation,
): Relation | null {
  const c = node.config;
  const w = c.window;
  if (!left.rowtime || !right.rowtime) {
    ctx.warn(
      node,
      undefined,
      'an input has no event time in the exported script; the window join and everything after it is left out',
    );
    return null;
  }
  const clash = [...left.columns, ...right.columns].find((k) =>
    ['window_start', 'window_end', 'window_time'].includes(k.name),
  );
  if (clash) {
    ctx.warn(
      node,
      undefined,
      `an input already has a column '${clash.name}', which the window table function adds; the window join is left out`,
    );
    return null;
  }
  const { items, columns } = joinSelect(c.select, true);
  const tvf = (rel: Relation, key: string) =>
    w.kind === 'tumbling'
      ? `TUMBLE(TABLE ${rel.sql}, DESCRIPTOR(${quoteIdent(rel.rowtime!)}), ${intervalLiteral(parseSignedDuration(w.size))})`
      : w.kind === 'sliding'
        ? `HOP(TABLE ${rel.sql}, DESCRIPTOR(${quoteIdent(rel.rowtime!)}), ${intervalLiteral(parseSignedDuration(w.slide))}, ${intervalLiteral(parseSignedDuration(w.size))})`
        : sessionTvf(rel, parseKeyBy(key).columns.map(quoteIdent), parseSignedDuration(w.gap));
  const on = [...keyCondition(c.leftKey, c.rightKey), 'L.window_start = R.window_start', 'L.window_end = R.window_end'];
  const name = quoteIdent(node.id);
  const head = `${ctx.origin(node)}\n-- A window join (window table functions on both inputs, joined per window; append-only).`;
  const view =
    `CREATE VIEW ${name} AS\nSELECT\n${items.map((i) => '  ' + i).join(',\n')}\n` +
    `FROM (SELECT * FROM TABLE(${tvf(left, c.leftKey)})) AS L\nJOIN (SELECT * FROM TABLE(${tvf(right, c.rightKey)})) AS R\n  ON ${on.join(' AND ')};`;
  if (w.kind === 'session') {
    ctx.warn(
      node,
      'config.window',
      "Flink's session window join forms sessions on each input separately and joins only sessions with equal bounds; " +
        "Weir forms one session per key from the records of both inputs, so Flink joins a subset of Weir's pairs " +
        "(only where the two inputs' sessions line up), and its window bounds can be narrower",
    );
    return emitSessionCommented(ctx, node, head, view, 'session window join');
  }
  ctx.emit(`${head}\n${view}`);
  return { sql: name, columns, rowtime: null };
}

export function emitIntervalJoin(
  ctx: ExportContext,
  node: N<typeof intervalJoin.type>,
  left: Relation,
  right: Relation,
): Relation | null {
  const c = node.config;
  if (!left.rowtime || !right.rowtime) {
    ctx.warn(
      node,
      undefined,
      'an input has no event time in the exported script; the interval join and everything after it is left out',
    );
    return null;
  }
  const { items, columns } = joinSelect(c.select, false);
  const lower = parseSignedDuration(c.lower),
    upper = parseSignedDuration(c.upper);
  const lrt = `L.${quoteIdent(left.rowtime)}`,
    rrt = `R.${quoteIdent(right.rowtime)}`;
  const where = [
    ...keyCondition(c.leftKey, c.rightKey),
    `${lrt} BETWEEN ${bound(rrt, lower)} AND ${bound(rrt, upper)}`,
  ];
  const name = quoteIdent(node.id);
  const side = feedsTimedNode(ctx, node.id) ? resultTimeSide(lower, upper) : null;
  const rowtime = side === 'L' ? left.rowtime : side === 'R' ? right.rowtime : null;
  const note =
    side === null
      ? `-- Flink keeps both as columns, so no event-time attribute is passed on here.\n`
      : `-- The bounds make it always the ${side === 'L' ? 'left' : 'right'} row's, whose time attribute is passed on.\n`;
  if (rowtime) items.push(`${side}.${quoteIdent(rowtime)} AS ${quoteIdent(rowtime)}`);
  ctx.emit(
    `${ctx.origin(node)}\n-- An interval join (append-only). Weir's result time is the larger of the two rows' times;\n` +
      note +
      `CREATE VIEW ${name} AS\nSELECT\n${items.map((i) => '  ' + i).join(',\n')}\nFROM ${left.sql} AS L, ${right.sql} AS R\nWHERE ${where.join('\n  AND ')};`,
  );
  return { sql: name, columns, rowtime };
}
