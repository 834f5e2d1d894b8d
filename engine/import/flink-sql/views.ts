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
import { importTopN } from './topn.ts';
import type { Pos } from './tree.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { union as unionNode } from '../../nodes/union/definition.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';

const WINDOW_COLUMNS = new Set(['window_start', 'window_end', 'window_time']);
const BOUND_FUNCTIONS = /\b(SESSION|HOP|TUMBLE)_(START|END|ROWTIME|PROCTIME)\s*\(|\bwindow_(start|end|time)\b/i;

/** Imports a view; returns the relation its name stands for, or null (reported). */
export function importQuery(
  b: JobBuilder,
  name: string,
  q: QueryShape,
  origin: Origin | null,
  pos: Pos,
): Relation | null {
  if (q.kind === 'other') {
    b.problem(
      q.pos,
      `'${name}': this query has no Weir node (only SELECT ... FROM one table or view, a window, or UNION ALL)`,
      'error',
    );
    return null;
  }
  if (q.kind === 'union') return importUnion(b, name, q.branches, q.all, origin, pos);
  for (const u of q.unsupported) b.problem(u.pos, `'${name}': ${u.what} has no Weir node; left out`, 'error');
  if ('join' in q.from) return importJoin(b, name, q, q.from.join, origin);
  if ('subquery' in q.from) return importTopN(b, name, q, q.from.subquery, origin);
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
  if (q.groupBy) return importAggregate(b, name, q, q.from.table, origin);
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
    b.add({ id, type: filterNode.type, config: { where: q.where } }, q.pos, passThrough ? origin : null);
    b.connect(current, id);
    current = { nodes: [id], rowtime: input.rowtime, columns: input.columns };
  }
  if (passThrough && q.where !== null) return current;
  if (passThrough && kind !== mapNode.type && !q.star) {
    // An identity SELECT (a helper view): no node of its own.
    return current;
  }
  const items = q.items.filter((i) => !isRowtimeItem(i, input.rowtime));
  // `expr AS EXPR$i` at position i is Flink's (and Weir's) own name for an unaliased expression.
  const select = [...(q.star ? ['*'] : []), ...items.map((i, k) => (i.alias === `EXPR$${k}` ? i.expr : i.text))].join(
    ', ',
  );
  const id = b.freeId(origin?.id ?? name);
  b.add({ id, type: mapNode.type, config: { select } }, q.pos, origin);
  b.connect(current, id);
  const rowtime = q.items.find((i) => isRowtimeItem(i, input.rowtime)) ? input.rowtime : null;
  return { nodes: [id], rowtime, columns: items.map((i) => i.alias ?? i.column ?? i.expr) };
}

function isRowtimeItem(i: SelectItem, rowtime: string | null): boolean {
  return rowtime !== null && (i.alias ?? i.column) === rowtime;
}

/** Every item a bare input column (or the export's `CAST(c AS T) AS c`): the rows pass unchanged. */
export function isPassThrough(items: SelectItem[], input: Relation): boolean {
  return (
    items.every(
      (i) =>
        (i.column !== null && (i.alias === null || i.alias === i.column)) ||
        (i.alias !== null && new RegExp(`^CAST\\(\\s*\`?${escape(i.alias)}\`?\\s+AS\\s+[^)]*\\)$`, 'i').test(i.expr)),
    ) &&
    items.length > 0 &&
    (input.columns.length === 0 ||
      items.every(
        (i) =>
          i.alias === input.rowtime || i.column === input.rowtime || input.columns.includes(i.alias ?? i.column ?? ''),
      ))
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
  return {
    nodes: [id],
    rowtime: rowtimeItem ? (rowtimeItem.alias ?? 'window_time') : null,
    columns: ['window_start', 'window_end', ...keys, ...aggregateNames],
  };
}
