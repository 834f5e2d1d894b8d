/**
 * A window aggregation as a `window` node: a window table function (TUMBLE/HOP(TABLE t, ...)) or
 * a group window (GROUP BY TUMBLE/HOP/SESSION(...)) with keys and aggregates. The window writes
 * its bounds, keys and aggregates; a select that renames or reorders them gets a `map` after it.
 * The relation records which columns are the rows' event time plus an offset (Relation.times).
 */
import type { JobNode } from '../../graph/types.ts';
import type { JobBuilder, Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { GroupWindow, SelectShape, WindowCall } from './query-shape.ts';
import { windowSpec } from './window-spec.ts';
import { AGGREGATE } from './aggregate.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';

const WINDOW_COLUMNS = new Set(['window_start', 'window_end', 'window_time']);
/** The count a window without aggregates keeps (Weir's window needs one); dropped after it. */
const WINDOW_ROWS = 'window_rows__';
const BOUND_FUNCTIONS = /\b(SESSION|HOP|TUMBLE)_(START|END|ROWTIME|PROCTIME)\s*\(|\bwindow_(start|end|time)\b/i;

export function importWindow(
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
  // The event time stays beside the row (a window_time the select names is not one of its columns).
  return { nodes: [id], rowtime: win.rowtime, columns: pairs.map((p) => p.to), times };
}
