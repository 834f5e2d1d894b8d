/**
 * Flink's Top-N pattern as a `topn` node:
 *   SELECT cols, rownum FROM (
 *     SELECT cols, ROW_NUMBER() OVER (PARTITION BY k ORDER BY o) AS rownum FROM t
 *   ) WHERE rownum <= N                                   (`rownum = 1`: deduplication)
 * and the window Top-N, the same over `TABLE(TUMBLE|HOP(TABLE t, DESCRIPTOR(rt), ...))` with the
 * window bounds first in PARTITION BY. Weir's topn writes its input's columns and `rownum` (a window
 * Top-N the window bounds first), so an outer SELECT of other columns becomes a `map` after it.
 */
import type { WindowSpec } from '../../graph/types.ts';
import { besideRow, type JobBuilder, type Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { QueryShape, SelectItem, SelectShape } from './query-shape.ts';
import { windowSpec } from './window-spec.ts';
import { mentions } from './computed-columns.ts';
import { unquoteIdent } from './values.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { topn as topnNode } from '../../nodes/topn/definition.ts';

const RANK = 'rownum';
const WINDOW_BOUNDS = ['window_start', 'window_end'];
/** The exporter's ISO text for a window bound (Weir writes bounds as ISO strings). */
const ISO_BOUND = /^DATE_FORMAT\(\s*(window_start|window_end)\s*,\s*'yyyy-MM-dd''T''HH:mm:ss\.SSS''Z'''\s*\)$/i;

/** A subquery that computes ROW_NUMBER() OVER (...): the inner query of Flink's Top-N pattern. */
export function isTopN(sub: QueryShape): boolean {
  return sub.kind === 'select' && sub.items.some((i) => i.over?.fn === 'ROW_NUMBER');
}

export function importTopN(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  sub: QueryShape,
  origin: Origin | null,
): Relation | null {
  const rankItem = sub.kind === 'select' ? sub.items.find((i) => i.over) : undefined;
  if (sub.kind !== 'select' || !rankItem?.over || rankItem.over.fn !== 'ROW_NUMBER') {
    b.problem(
      'pos' in q.from ? q.from.pos : q.pos,
      `'${name}': a subquery in FROM has no Weir node (only Top-N, ROW_NUMBER() OVER (...) filtered by its rank, does)`,
      'error',
    );
    return null;
  }
  const over = rankItem.over;
  const rank = rankItem.alias ?? RANK;
  const limit = readLimit(q, rank);
  if (limit === null) {
    b.problem(
      q.pos,
      `'${name}': Top-N needs WHERE ${rank} <= N (or ${rank} = 1, ${rank} < N) and nothing else in that WHERE`,
      'error',
    );
    return null;
  }
  if (rank !== RANK) b.problem(rankItem.pos, `'${name}': Weir's topn names its rank column ${RANK}, not ${rank}`);
  for (const u of sub.unsupported) b.problem(u.pos, `'${name}': ${u.what} has no Weir node; left out`, 'error');
  for (const i of sub.items)
    if (i !== rankItem && i.column === null && !WINDOW_BOUNDS.includes(i.alias ?? ''))
      b.problem(i.pos, `'${name}': ${i.text} is computed inside the Top-N; put a map before it (left out)`, 'error');
  let window: WindowSpec | null = null;
  let partition = over.partitionBy;
  let inputName: string;
  if ('tvf' in sub.from) {
    const tvf = sub.from.tvf;
    window = windowSpec(tvf.fn, tvf.intervals);
    if (!window || window.kind === 'session') {
      b.problem(tvf.pos, `'${name}': a window Top-N over ${tvf.fn} has no Weir node (TUMBLE and HOP do)`, 'error');
      return null;
    }
    // The window bounds partition a window Top-N; Weir's topn adds them itself.
    if (!WINDOW_BOUNDS.every((w) => partition.includes(w)))
      b.problem(
        over.pos,
        `'${name}': a window Top-N ranks per window: PARTITION BY should start with window_start, window_end`,
      );
    partition = partition.filter((p) => !WINDOW_BOUNDS.includes(p));
    inputName = tvf.table;
  } else if ('table' in sub.from) {
    inputName = sub.from.table;
  } else {
    b.problem(sub.pos, `'${name}': Top-N over anything but one table or view has no Weir node`, 'error');
    return null;
  }
  const input = b.relation(inputName, sub.pos, `'${name}'`);
  if (!input) return null;
  if (window && 'tvf' in sub.from && input.rowtime !== null && sub.from.tvf.timeCol !== input.rowtime)
    b.problem(
      sub.from.tvf.pos,
      `'${name}': windows on ${sub.from.tvf.timeCol}; Weir's window Top-N uses the input's event time ${input.rowtime}`,
    );
  let current = input;
  // The computed columns of a hand-written source are not in its rows: written here, so that the
  // Top-N can order by them and writes them (`SELECT *` over the table has them in Flink).
  const reads = [over.orderBy, ...over.partitionBy, ...q.items.map((i) => i.expr)].join(' ');
  // `SELECT *, ROW_NUMBER() ...` has the computed columns too, as Flink's star does (the event-time
  // column stays beside the row unless read).
  const computed = Object.entries(input.computed ?? {}).filter(
    ([c]) => (sub.star && c !== input.rowtime) || mentions(reads, c),
  );
  if (computed.length > 0) {
    const mid = b.freeId(`${name}_computed`);
    const select = ['*', ...computed.map(([c, expr]) => `(${expr}) AS \`${c}\``)].join(', ');
    b.add({ id: mid, type: mapNode.type, config: { select } }, sub.pos, null);
    b.connect(current, mid);
    current = { nodes: [mid], rowtime: input.rowtime, columns: input.columns };
  }
  if (sub.where !== null) {
    if (window) {
      b.problem(sub.pos, `'${name}': WHERE inside a window Top-N; put a filter before it (left out)`, 'error');
    } else {
      // Rows are filtered before they are ranked: a filter node in front.
      const fid = b.freeId(`${name}_where`);
      b.add({ id: fid, type: filterNode.type, config: { where: sub.where } }, sub.pos, null);
      b.connect(current, fid);
      current = { nodes: [fid], rowtime: input.rowtime, columns: input.columns };
    }
  }
  const id = b.freeId(origin?.id ?? name);
  b.add(
    {
      id,
      type: topnNode.type,
      config: { partitionBy: partition.join(', '), orderBy: over.orderBy, limit, ...(window ? { window } : {}) },
    },
    q.pos,
    origin,
  );
  b.connect(current, id);
  const inputCols = input.columns.filter(
    (c) => (!besideRow(input, c) && input.computed?.[c] === undefined) || computed.some(([k]) => k === c),
  );
  const columns = [...(window ? WINDOW_BOUNDS : []), ...inputCols, RANK];
  const out: Relation = { nodes: [id], rowtime: null, columns };
  return outerSelect(b, name, q, out, rank);
}

/** `rownum <= N`, `rownum < N`, `rownum = 1` as N; null for any other WHERE. */
function readLimit(q: SelectShape, rank: string): number | null {
  if (q.conditions.length !== 1) return null;
  const m = /^(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*)\s*(<=|<|=)\s*(\d+)$/.exec(q.conditions[0].text.trim());
  if (!m || unquoteIdent(m[1]) !== rank) return null;
  const n = Number(m[3]);
  if (m[2] === '=') return n === 1 ? 1 : null;
  const limit = m[2] === '<' ? n - 1 : n;
  return limit >= 1 ? limit : null;
}

/** The outer SELECT: the topn's own columns (none or all, in order) need no node; others a map. */
function outerSelect(b: JobBuilder, name: string, q: SelectShape, topn: Relation, rank: string): Relation {
  if (q.star) return topn;
  const names = q.items.map((i) => outputColumn(i, rank));
  if (names.length === topn.columns.length && names.every((n, k) => n === topn.columns[k])) return topn;
  if (names.every((n) => n !== null && topn.columns.includes(n))) {
    const id = b.freeId(`${name}_select`);
    b.add({ id, type: mapNode.type, config: { select: q.items.map((i) => i.text).join(', ') } }, q.pos, null);
    b.connect(topn, id);
    return { nodes: [id], rowtime: null, columns: names as string[] };
  }
  b.problem(q.pos, `'${name}': the SELECT around a Top-N reads columns Weir's topn does not write; left out`, 'error');
  return topn;
}

function outputColumn(i: SelectItem, rank: string): string | null {
  const iso = ISO_BOUND.exec(i.expr);
  if (iso && (i.alias === null || i.alias === iso[1])) return iso[1];
  if (i.column !== null && (i.alias === null || i.alias === i.column)) return i.column === rank ? RANK : i.column;
  return null;
}
