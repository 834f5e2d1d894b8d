/**
 * A query (a CREATE VIEW, or the SELECT of an INSERT) as Weir nodes: a window table function or a
 * group window with GROUP BY becomes a `window`, a GROUP BY without one an `aggregate`, a Top-N
 * subquery a `topn`, a join one of the join nodes, WHERE a `filter`, computed columns a `map`,
 * UNION ALL a `union`. The helper views Weir's export writes (a source's filtering view over `x__raw`,
 * `x__input` merging several inputs, `x__renamed` renaming window bounds) fold back into the node
 * they came from. What has no Weir node (CUMULATE, HAVING, ORDER BY, other joins...) is
 * reported with its position.
 */
import { OVER_UNSUPPORTED } from './over-windows.ts';
import type { JobNode } from '../../graph/types.ts';
import type { JobBuilder, Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { GroupWindow, QueryShape, SelectItem, SelectShape, WindowCall } from './query-shape.ts';
import { SOURCE_TABLE_SUFFIX } from './tables.ts';
import { windowSpec } from './window-spec.ts';
import { AGGREGATE, importAggregate } from './aggregate.ts';
import { importJoin } from './joins.ts';
import { importTopN, isTopN } from './topn.ts';
import { fromDerived, joinOfDerived } from './derived-tables.ts';
import { joinAsSubquery } from './join-derived.ts';
import { inlineComputed, isComputedColumn, mentions } from './computed-columns.ts';
import type { Pos } from './tree.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { union as unionNode } from '../../nodes/union/definition.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';

const WINDOW_COLUMNS = new Set(['window_start', 'window_end', 'window_time']);
/** The count a window without aggregates keeps (Weir's window needs one); dropped after it. */
const WINDOW_ROWS = 'window_rows__';
const BOUND_FUNCTIONS = /\b(SESSION|HOP|TUMBLE)_(START|END|ROWTIME|PROCTIME)\s*\(|\bwindow_(start|end|time)\b/i;

/** Imports a view; returns the relation its name stands for, or null (reported). */
export function importQuery(
  b: JobBuilder,
  name: string,
  shape: QueryShape,
  origin: Origin | null,
  pos: Pos,
): Relation | null {
  let q = shape;
  // A GROUP BY over a join: the join is a subquery of its own (join-derived.ts).
  if (q.kind === 'select' && 'join' in q.from && q.groupBy !== null) q = joinAsSubquery(b, { ...q, from: q.from }, []);
  if (q.kind === 'select' && 'subquery' in q.from && !isTopN(q.from.subquery)) {
    const derived = fromDerived(b, name, { ...q, from: q.from }, importQuery);
    if (!derived) return null;
    q = derived;
  }
  if (q.kind === 'other') {
    b.problem(
      q.pos,
      `'${name}': this query has no Weir node (only SELECT ... FROM one table or view, a window, or UNION ALL)`,
      'error',
    );
    return null;
  }
  if (q.kind === 'union') return importUnion(b, name, q.branches, q.all, origin, pos);
  const proctime = q.items.find((i) => /\bPROCTIME\s*\(/i.test(i.expr));
  if (proctime) {
    b.problem(
      proctime.pos,
      `'${name}': ${proctime.text} is processing time, which Weir has no equivalent of (its windows and joins run on event time); not imported`,
      'error',
    );
    return null;
  }
  for (const u of q.unsupported) b.problem(u.pos, `'${name}': ${u.what} has no Weir node; left out`, 'error');
  if ('join' in q.from) {
    const join = joinOfDerived(b, name, q, q.from.join, importQuery);
    return join ? importJoin(b, name, q, join, origin) : null;
  }
  if ('subquery' in q.from) {
    let sub = q.from.subquery;
    // Top-N over a join: the join is a subquery of its own, the ranking reads its columns.
    if (sub.kind === 'select' && 'join' in sub.from) {
      const ranked = joinAsSubquery(
        b,
        { ...sub, from: sub.from },
        sub.items.filter((i) => !i.over),
      );
      const derived =
        'subquery' in ranked.from ? fromDerived(b, name, { ...ranked, from: ranked.from }, importQuery) : null;
      if (!derived) return null;
      sub = derived;
    }
    return importTopN(b, name, q, sub, origin);
  }
  // An OVER aggregation the grammar read (over-windows.ts reports those it fails on) has no Weir
  // node either: the statement is left out, with the same one error, rather than a map Weir refuses.
  const over = q.items.find((i) => i.over)?.over;
  if (over) {
    b.problem(over.pos, OVER_UNSUPPORTED, 'error');
    return null;
  }
  if ('other' in q.from) {
    b.problem(
      q.from.pos,
      `'${name}': FROM ${q.from.other.replace(/^FROM\s+/i, '')} has no Weir node (one table or view, or a window table function)`,
      'error',
    );
    return null;
  }
  if ('tvf' in q.from) return importWindow(b, name, q, q.from.tvf, null, origin);
  const groupWindow = q.groupBy?.find((g): g is { window: GroupWindow } => 'window' in g);
  if (groupWindow) return importWindow(b, name, q, null, groupWindow.window, origin);
  if (q.groupBy) {
    // GROUP BY a window's end (renamed) over that window's rows is Flink's cascaded window
    // aggregation (an append result): the rows of one upstream window all carry the event time
    // window_end - 1, so a 1 ms tumbling window holds exactly them, and fires when Flink's does.
    const input = b.relations.get(q.from.table);
    const end = q.groupBy.some((g) => 'column' in g && g.column !== 'window_end' && input?.times?.[g.column] === 1);
    if (end) return importWindow(b, name, q, null, { fn: 'TUMBLE', timeCol: '', intervals: [1] }, origin);
    return importAggregate(b, name, q, q.from.table, origin);
  }
  const input = b.relation(q.from.table, q.pos, `'${name}'`);
  if (!input) return null;
  // Weir's export: a source's view over its __raw/__csv table drops bad records (it is the source),
  // and `<id>__renamed` renames an input's window bounds for the window function (it is the input).
  if (SOURCE_TABLE_SUFFIX.test(q.from.table) && q.from.table.replace(SOURCE_TABLE_SUFFIX, '') === name) return input;
  if (/__renamed$/.test(name)) return input;
  let current = input;
  const passThrough = isPassThrough(q.items, input);
  const kind = origin?.type;
  if (q.where !== null) {
    const id = b.freeId(passThrough ? (origin?.id ?? name) : `${name}_where`);
    const where = inlineComputed(q.where, input);
    b.add({ id, type: filterNode.type, config: { where } }, q.pos, passThrough ? origin : null);
    b.connect(current, id);
    current = { ...input, nodes: [id] };
  }
  if (passThrough && q.where !== null) return current;
  if (passThrough && kind !== mapNode.type && !q.star) {
    // An identity SELECT (a helper view): no node of its own.
    return current;
  }
  const items = q.items.filter((i) => !isRowtimeItem(i, input));
  // Computed columns selected as they are stay computed (a window's DESCRIPTOR, or the sink, reads them).
  const kept = virtualItems(items, input, q.star);
  // `SELECT *` over computed columns: the row has the physical ones, the computed stay computed.
  // `expr AS EXPR$i` at position i is Flink's (and Weir's) own name for an unaliased expression.
  const select = [
    ...(q.star ? ['*'] : []),
    ...items.flatMap((i, k) => (kept.has(i) ? [] : [selectItem(i, k, input)])),
  ].join(', ');
  const id = b.freeId(origin?.id ?? name);
  b.add({ id, type: mapNode.type, config: { select } }, q.pos, origin);
  b.connect(current, id);
  const rowtime = q.star || q.items.some((i) => (i.alias ?? i.column) === input.rowtime) ? input.rowtime : null;
  const named = items.map((i) => i.alias ?? i.column ?? i.expr);
  const computed = Object.fromEntries(
    [...kept]
      .map((i) => [i.column!, input.computed![i.column!]] as const)
      .concat(q.star ? Object.entries(input.computed ?? {}) : []),
  );
  // A column that is the event time plus an offset stays one under its new name (a join may bound on it).
  const times = Object.fromEntries(
    items.flatMap((i) =>
      i.column !== null && input.times?.[i.column] !== undefined ? [[i.alias ?? i.column, input.times[i.column]]] : [],
    ),
  );
  return {
    nodes: [id],
    rowtime,
    columns: q.star ? [...input.columns, ...named] : named,
    ...(Object.keys(computed).length > 0 ? { computed } : {}),
    ...(Object.keys(times).length > 0 || (q.star && input.times)
      ? { times: { ...(q.star ? input.times : {}), ...times } }
      : {}),
  };
}

/** An item as the map writes it: computed columns inlined, named as Flink names them. */
function selectItem(i: SelectItem, k: number, input: Relation): string {
  if (i.alias === `EXPR$${k}`) return inlineComputed(i.expr, input);
  if (isComputedColumn(i.column, input)) return `${inlineComputed(i.expr, input)} AS ${i.expr}`;
  const expr = inlineComputed(i.expr, input);
  return expr === i.expr ? i.text : `${expr}${i.text.slice(i.expr.length)}`;
}

/** The export's rowtime selected to carry the time attribute: Weir keeps event time beside the row. */
function isRowtimeItem(i: SelectItem, input: Relation): boolean {
  return input.rowtime !== null && (i.alias ?? i.column) === input.rowtime && !input.computed?.[input.rowtime];
}

const bare = (i: SelectItem): boolean => i.column !== null && (i.alias === null || i.alias === i.column);

/** Bare computed columns whose physical columns the select keeps: they stay computed, not written. */
function virtualItems(items: SelectItem[], input: Relation, star: boolean): Set<SelectItem> {
  const physical = new Set(items.filter((i) => bare(i) && !isComputedColumn(i.column, input)).map((i) => i.column!));
  const own = input.columns.filter((c) => input.computed?.[c] === undefined);
  const out = new Set<SelectItem>();
  for (const i of items) {
    if (!bare(i) || !isComputedColumn(i.column, input)) continue;
    const uses = own.filter((c) => mentions(input.computed![i.column!], c));
    if (star || uses.every((c) => physical.has(c))) out.add(i);
  }
  return out;
}

/**
 * Every item a bare input column (or the export's `CAST(c AS T) AS c`), all of them, in order:
 * the rows pass unchanged. A computed column (not in the row) selected as it is counts as passed
 * when its physical columns are.
 */
export function isPassThrough(items: SelectItem[], input: Relation): boolean {
  const kept = virtualItems(items, input, false);
  const names = items.filter((i) => !kept.has(i)).map((i) => i.alias ?? i.column ?? '');
  const own = input.columns.filter((c) => c !== input.rowtime && input.computed?.[c] === undefined);
  return (
    items.every(
      (i) =>
        bare(i) ||
        (i.alias !== null && new RegExp(`^CAST\\(\\s*\`?${escape(i.alias)}\`?\\s+AS\\s+[^)]*\\)$`, 'i').test(i.expr)),
    ) &&
    items.length > 0 &&
    items.every((i) => !isComputedColumn(i.column, input) || kept.has(i)) &&
    (input.columns.length === 0 ||
      (names.every((n) => n === input.rowtime || input.columns.includes(n)) &&
        names.filter((n) => n !== input.rowtime).join(',') === own.join(',')))
  );
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&');
}

function importUnion(
  b: JobBuilder,
  name: string,
  branches: QueryShape[],
  all: boolean,
  origin: Origin | null,
  pos: Pos,
): Relation | null {
  if (!all) b.problem(pos, `'${name}': UNION without ALL removes duplicates; Weir's union keeps every record`);
  const inputs: Relation[] = [];
  for (const br of branches) {
    if (br.kind === 'select' && 'table' in br.from && br.where === null && br.groupBy === null) {
      const r = b.relation(br.from.table, br.pos, `'${name}'`);
      if (r) inputs.push(r);
    } else if (br.kind === 'union') {
      const r = importUnion(b, `${name}`, br.branches, br.all, null, br.pos);
      if (r) inputs.push(r);
    } else {
      const r = importQuery(b, `${name}_part${inputs.length + 1}`, br, null, br.pos);
      if (r) inputs.push(r);
    }
  }
  if (inputs.length === 0) return null;
  const rowtime = inputs.every((r) => r.rowtime !== null) ? inputs[0].rowtime : null;
  const columns = [...new Set(inputs.flatMap((r) => r.columns))];
  // Weir's export merges the inputs of a non-union node in a view `<id>__input`: no node of its own.
  if (origin && origin.type !== unionNode.type) return { nodes: inputs.flatMap((r) => r.nodes), rowtime, columns };
  const id = b.freeId(origin?.id ?? name);
  b.add({ id, type: unionNode.type, config: {} }, pos, origin);
  for (const r of inputs) b.connect(r, id);
  return { nodes: [id], rowtime, columns };
}

function importWindow(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  tvf: WindowCall | null,
  gw: GroupWindow | null,
  origin: Origin | null,
): Relation | null {
  const fn = tvf?.fn ?? gw!.fn;
  const iv = tvf?.intervals ?? gw!.intervals;
  const window = windowSpec(fn, iv);
  if (!window) {
    b.problem(
      tvf?.pos ?? q.pos,
      `'${name}': the ${fn} window has no Weir node (tumbling, sliding/HOP and session windows do)`,
      'error',
    );
    return null;
  }
  const inputName = tvf ? tvf.table : 'table' in q.from ? q.from.table : '';
  // Weir's export renames an input's window bounds in `<id>__renamed` (input_window_start...).
  const renamed = /__renamed$/.test(inputName);
  const input = b.relation(inputName, q.pos, `'${name}'`);
  if (!input) return null;
  const restore = (s: string): string => (renamed ? s.replace(/\binput_(window_start|window_end)\b/g, '$1') : s);
  const keys = (q.groupBy ?? []).flatMap((g) =>
    'column' in g && !WINDOW_COLUMNS.has(g.column) ? [restore(g.column)] : [],
  );
  for (const g of q.groupBy ?? [])
    if ('other' in g)
      b.problem(q.pos, `'${name}': GROUP BY ${g.other} is not a column; Weir groups by columns`, 'error');
  const aggregates: string[] = [];
  const aggregateNames: string[] = [];
  for (const item of q.items) {
    const out = item.alias ?? item.column;
    if (out !== null && keys.includes(restore(out)) && item.column !== null) continue; // a key column
    if (BOUND_FUNCTIONS.test(item.expr) && !AGGREGATE.test(item.expr)) continue; // window bounds and time
    if (!AGGREGATE.test(item.expr)) {
      b.problem(
        item.pos,
        `'${name}': ${item.text} is neither a key nor an aggregate; Weir's window writes keys and aggregates`,
      );
      continue;
    }
    aggregates.push(restore(item.text));
    aggregateNames.push(item.alias ?? item.expr);
  }
  // Keys and no aggregate (`GROUP BY id, window_start, window_end`: each key once per window):
  // Weir's window needs an aggregate, so it counts the rows and the map after it drops the count.
  const distinct = aggregates.length === 0 && keys.length > 0;
  if (distinct) {
    aggregates.push(`COUNT(*) AS ${WINDOW_ROWS}`);
    aggregateNames.push(WINDOW_ROWS);
  }
  if (aggregates.length === 0) {
    b.problem(q.pos, `'${name}': a window needs at least one aggregate (COUNT, SUM, MIN, MAX, AVG)`, 'error');
    return null;
  }
  if (q.where !== null)
    b.problem(
      q.pos,
      `'${name}': WHERE before a window aggregation becomes part of the window's input in Flink; put a filter node before the window`,
      'error',
    );
  const id = b.freeId(origin?.id ?? name);
  const node: JobNode = {
    id,
    type: windowNode.type,
    config: { ...(keys.length ? { keyBy: keys.join(', ') } : {}), window, aggregates: aggregates.join(', ') },
  };
  b.add(node, q.pos, origin);
  b.connect(input, id);
  const rowtimeItem = q.items.find((i) => /^(window_time|(SESSION|HOP|TUMBLE)_ROWTIME\s*\()/i.test(i.expr));
  const size = fn === 'TUMBLE' ? iv[0] : fn === 'HOP' ? iv[1] : undefined;
  const out: Relation = {
    nodes: [id],
    rowtime: rowtimeItem ? (rowtimeItem.alias ?? 'window_time') : null,
    columns: ['window_start', 'window_end', ...keys, ...aggregateNames],
    times: { window_end: 1, window_time: 0, ...(size !== undefined ? { window_start: 1 - size } : {}) },
  };
  return windowColumns(b, name, q, out, keys, aggregateNames, restore);
}

/**
 * The window writes its bounds, keys and aggregates in that order; a select that names a bound
 * otherwise (`SESSION_START(...) AS starttime`, `window_start AS starttime`) or orders its columns
 * otherwise gets a map after it, so the relation's columns are the select's, as Flink's are.
 */
function windowColumns(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  win: Relation,
  keys: string[],
  aggregateNames: string[],
  restore: (s: string) => string,
): Relation {
  const pairs: Array<{ from: string; to: string }> = [];
  let aggregate = 0;
  for (const item of q.items) {
    const out = item.alias ?? item.column;
    const bound = /^(?:(?:SESSION|HOP|TUMBLE)_(START|END)\s*\(|(window_start|window_end)$)/i.exec(item.expr.trim());
    if (out !== null && keys.includes(restore(out)) && item.column !== null)
      pairs.push({ from: restore(out), to: out });
    else if (bound) {
      const from = bound[1] ? `window_${bound[1].toLowerCase()}` : bound[2].toLowerCase();
      pairs.push({ from, to: out ?? from });
    } else if (AGGREGATE.test(item.expr) && aggregateNames[aggregate] !== WINDOW_ROWS) {
      const n = aggregateNames[aggregate++];
      if (n !== undefined) pairs.push({ from: n, to: n });
    } else if (BOUND_FUNCTIONS.test(item.expr)) continue; // window time and the export's ISO bounds
  }
  const renamed = pairs.some((p) => p.from !== p.to) || win.columns.includes(WINDOW_ROWS);
  const order = pairs.map((p) => win.columns.indexOf(p.from));
  const reordered = order.some((o, k) => k > 0 && o < order[k - 1]);
  if (!renamed && !reordered) return win;
  const id = b.freeId(`${name}_columns`);
  const q1 = (c: string): string => `\`${c.replace(/`/g, '``')}\``;
  const select = pairs.map((p) => (p.from === p.to ? q1(p.from) : `${q1(p.from)} AS ${q1(p.to)}`)).join(', ');
  b.add({ id, type: mapNode.type, config: { select } }, q.pos, null);
  b.connect(win, id);
  const times = Object.fromEntries(
    pairs.flatMap((p) => (win.times?.[p.from] !== undefined ? [[p.to, win.times[p.from]]] : [])),
  );
  return { nodes: [id], rowtime: null, columns: pairs.map((p) => p.to), times };
}
