/**
 * A query (a CREATE VIEW, or the SELECT of an INSERT) as Weir nodes: a window table function or a
 * group window with GROUP BY becomes a `window`, a GROUP BY without one an `aggregate`, a Top-N
 * subquery a `topn`, a join one of the join nodes, WHERE a `filter`, computed columns a `map`,
 * UNION ALL a `union`. The helper views Weir's export writes (a source's filtering view over `x__raw`,
 * `x__input` merging several inputs, `x__renamed` renaming window bounds) fold back into the node
 * they came from. A subquery in FROM or as a join input is imported as a view of its own
 * (derived-tables.ts), and a GROUP BY or Top-N over a join reads the join as one (join-derived.ts).
 * What has no Weir node (CUMULATE, HAVING, ORDER BY, other joins...) is reported with its position.
 */
import { OVER_UNSUPPORTED } from './over-windows.ts';
import { besideRow, type JobBuilder, type Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { GroupWindow, QueryShape, SelectItem } from './query-shape.ts';
import { SOURCE_TABLE_SUFFIX } from './tables.ts';
import { importAggregate } from './aggregate.ts';
import { importJoin } from './joins.ts';
import { importTopN, isTopN } from './topn.ts';
import { importWindow } from './window-query.ts';
import { fromDerived, joinOfDerived } from './derived-tables.ts';
import { joinAsSubquery } from './join-derived.ts';
import { inlineComputed, isComputedColumn, mentions } from './computed-columns.ts';
import type { Pos } from './tree.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { union as unionNode } from '../../nodes/union/definition.ts';

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
    ...(rowtime !== null && input.rowtimeInRow ? { rowtimeInRow: true } : {}),
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
  const column = i.alias ?? i.column;
  return column !== null && besideRow(input, column) && !input.computed?.[column];
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
  const own = input.columns.filter((c) => !besideRow(input, c) && input.computed?.[c] === undefined);
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
  // A physical rowtime column stays a column of the union's rows when it is one in every input.
  const inRow = rowtime !== null && inputs.every((r) => r.rowtimeInRow) ? { rowtimeInRow: true } : {};
  // Weir's export merges the inputs of a non-union node in a view `<id>__input`: no node of its own.
  if (origin && origin.type !== unionNode.type)
    return { nodes: inputs.flatMap((r) => r.nodes), rowtime, columns, ...inRow };
  const id = b.freeId(origin?.id ?? name);
  b.add({ id, type: unionNode.type, config: {} }, pos, origin);
  for (const r of inputs) b.connect(r, id);
  return { nodes: [id], rowtime, columns, ...inRow };
}
