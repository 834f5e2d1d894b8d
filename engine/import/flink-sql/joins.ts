/**
 * A SELECT over a join of two relations as one of Weir's two-input nodes (edges with `toPort`
 * "left" / "right", `select` naming columns `L.x` / `R.x`):
 * - window table functions on both sides joined on keys and equal window bounds -> `join.window`;
 * - keys and `L.rt BETWEEN R.rt - a AND R.rt + b` on the two event times -> `join.interval`;
 * - keys alone -> `join` (inner, left, right or full outer).
 * Conditions come from ON and, for an inner or comma join, WHERE (the same rows either way). A
 * condition that is neither a key equality nor that time bound has no place in these nodes and
 * is reported with its position; so are joins of three relations, CROSS/NATURAL joins and joins
 * without keys.
 */
import type { JobNode, WindowSpec } from '../../graph/types.ts';
import { tokenize } from '../../sql/lexer.ts';
import type { JobBuilder, Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { Condition, JoinFrom, JoinSide, SelectItem, SelectShape } from './query-shape.ts';
import { intervalMs, unquoteIdent, weirDuration } from './values.ts';
import { sameWindow, windowSpec } from './window-spec.ts';
import { join as joinNode } from '../../nodes/join/definition.ts';
import { intervalJoin } from '../../nodes/join-interval/definition.ts';
import { windowJoin } from '../../nodes/join-window/definition.ts';
import { filtered, inlineSides, oneSide, stripSide } from './join-sides.ts';
import { residualColumns, residualFilter } from './join-residual.ts';

/** The exporter's ISO text for a window join's bounds (Weir's `window_start` / `window_end`). */
const ISO_BOUND = /^DATE_FORMAT\(\s*(window_start|window_end)\s*,\s*'yyyy-MM-dd''T''HH:mm:ss\.SSS''Z'''\s*\)$/i;
const REF = /^([LR])\.(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*)$/;

/** An interval join's bounds (ms); `regular` when Flink runs it as a regular join (a window end bounds it). */
interface TimeBound {
  lower: number;
  upper: number;
  regular: boolean;
}

interface Side {
  rel: Relation;
  window: WindowSpec | null;
  timeCol: string | null;
}

export function importJoin(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  join: JoinFrom,
  origin: Origin | null,
): Relation | null {
  if (join.nested) {
    b.problem(join.pos, `'${name}': a join of more than two relations has no Weir node (join two per view)`, 'error');
    return null;
  }
  if (join.kind === 'other') {
    b.problem(join.pos, `'${name}': ${join.keyword} has no Weir node (JOIN, LEFT/RIGHT/FULL OUTER JOIN do)`, 'error');
    return null;
  }
  if (q.star) {
    b.problem(q.pos, `'${name}': SELECT * over a join; Weir's joins name each column (L.x, R.y)`, 'error');
    return null;
  }
  const left = readSide(b, name, join.left);
  const right = readSide(b, name, join.right);
  if (!left || !right) return null;
  const aliases = { L: join.left.alias ?? join.left.table, R: join.right.alias ?? join.right.table };
  const prefix = (text: string) => toLR(text, aliases, left.rel.columns, right.rel.columns);
  const outer = join.kind !== 'inner' && join.kind !== 'comma';
  if (outer && q.where !== null)
    b.problem(
      q.pos,
      `'${name}': WHERE after an outer join has no place in Weir's join (filter its output instead); left out`,
      'error',
    );
  const conditions = [...join.on, ...(outer ? [] : q.conditions)];
  const leftKeys: string[] = [];
  const rightKeys: string[] = [];
  let bounds = 0;
  let interval: TimeBound | null = null;
  const pushed: { L: string[]; R: string[] } = { L: [], R: [] };
  const residual: string[] = [];
  for (const c of conditions) {
    const key = keyPair(c, prefix);
    // Equal window bounds are what makes it a window join, not keys of its own.
    if (key && /^window_(start|end)$/.test(key[0]) && key[0] === key[1] && left.window && right.window) {
      bounds++;
      continue;
    }
    if (key) {
      leftKeys.push(key[0]);
      rightKeys.push(key[1]);
      continue;
    }
    // One time bound on the two event times (an outer interval join has no Weir node).
    const bound: TimeBound | null = interval || outer ? null : timeBound(c, prefix, left, right);
    if (bound) {
      interval = bound;
      if (bound.regular)
        b.problem(
          c.pos,
          `'${name}': ${c.text} bounds a window's end, which is no time attribute in Flink: Flink joins with a regular join, which keeps rows that arrive behind the watermark; Weir's interval join drops them (the same rows otherwise)`,
        );
      continue;
    }
    // A condition on one input only filters that input first (the same rows; for an outer join
    // only the input whose rows are not kept unmatched).
    const side = oneSide(prefix(c.text));
    if (side && (join.kind === 'inner' || join.kind === 'comma' || join.kind === (side === 'R' ? 'left' : 'right'))) {
      pushed[side].push(stripSide(prefix(c.text), side));
      continue;
    }
    // A condition on both inputs of an inner join: a filter on the joined rows (join-residual.ts).
    if (!outer) {
      residual.push(prefix(c.text));
      continue;
    }
    b.problem(
      c.pos,
      `'${name}': join condition ${c.text} is neither a key (L.a = R.b), the event-time bound, nor on one input; left out`,
      'error',
    );
  }
  if (leftKeys.length === 0) {
    b.problem(join.pos, `'${name}': a join without equal keys (L.a = R.b) has no Weir node`, 'error');
    return null;
  }
  const windowed = left.window !== null || right.window !== null;
  if (windowed && (!left.window || !right.window || !sameWindow(left.window, right.window) || bounds !== 2 || outer)) {
    b.problem(
      join.pos,
      `'${name}': a window join needs the same TUMBLE or HOP window on both sides, joined on window_start and window_end (inner)`,
      'error',
    );
    return null;
  }
  for (const s of [left, right])
    if (s.window && s.timeCol !== s.rel.rowtime)
      b.problem(
        join.pos,
        `'${name}': windows on ${s.timeCol}; Weir's window join uses the event time ${s.rel.rowtime}`,
      );
  const inline = (t: string) => inlineSides(t, left.rel, right.rel);
  const items = expandStars(q, aliases, left.rel, right.rel);
  const { select, columns, written } = joinSelect(items, prefix, windowed, inline);
  const { names, extra } = residualColumns(residual, written, columns);
  const keys = {
    leftKey: leftKeys.join(', '),
    rightKey: rightKeys.join(', '),
    select: [select, ...extra.map((e) => `${inline(e.ref)} AS \`${e.out}\``)].join(', '),
  };
  const id = b.freeId(origin?.id ?? name);
  let node: JobNode;
  if (windowed) node = { id, type: windowJoin.type, config: { ...keys, window: left.window! } };
  else if (interval)
    node = {
      id,
      type: intervalJoin.type,
      config: { ...keys, lower: signed(interval.lower), upper: signed(interval.upper) },
    };
  else node = { id, type: joinNode.type, config: { kind: join.kind === 'comma' ? 'inner' : join.kind, ...keys } };
  b.add(node, q.pos, origin);
  b.connect(filtered(b, name, left.rel, pushed.L, 'left', q), id, 'left');
  b.connect(filtered(b, name, right.rel, pushed.R, 'right', q), id, 'right');
  // No event-time attribute comes out of a join in the exported script (see the exporter).
  const joined: Relation = { nodes: [id], rowtime: null, columns: [...columns, ...extra.map((e) => e.out)] };
  return residual.length > 0 ? residualFilter(b, name, q, joined, residual, names, columns) : joined;
}

/** A side: a table or view, or the window join's `(SELECT * FROM TABLE(TUMBLE(TABLE t, ...)))`. */
function readSide(b: JobBuilder, name: string, side: JoinSide): Side | null {
  if (side.table !== null) {
    const rel = b.relation(side.table, side.pos, `'${name}'`);
    return rel ? { rel, window: null, timeCol: null } : null;
  }
  const q = side.query;
  if (q?.kind === 'select' && q.star && q.items.length === 0 && q.where === null && 'tvf' in q.from) {
    const tvf = q.from.tvf;
    const window = windowSpec(tvf.fn, tvf.intervals);
    if (!window || window.kind === 'session') {
      b.problem(tvf.pos, `'${name}': a window join over ${tvf.fn} has no Weir node (TUMBLE and HOP do)`, 'error');
      return null;
    }
    const rel = b.relation(tvf.table, tvf.pos, `'${name}'`);
    return rel ? { rel, window, timeCol: tvf.timeCol } : null;
  }
  b.problem(
    side.pos,
    `'${name}': a join input that is a subquery has no Weir node (a table, a view, or SELECT * over a window table function)`,
    'error',
  );
  return null;
}

/**
 * Column references as Weir's join writes them: `o.x` (the side's alias or table name) -> `L.x`,
 * and a bare column found in one input only -> `L.x` / `R.x`.
 */
function toLR(
  text: string,
  aliases: { L: string | null; R: string | null },
  leftCols: string[],
  rightCols: string[],
): string {
  let toks;
  try {
    toks = tokenize(text);
  } catch {
    return text; // not Weir's SQL: left as written, the node's validation reports it
  }
  let out = '';
  let pos = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    const next = toks[k + 1];
    const unq = t.kind === 'quoted' ? t.text.slice(1, -1).replace(/``/g, '`') : t.text;
    if ((t.kind === 'ident' || t.kind === 'quoted') && next?.text === '.') {
      const side = unq === aliases.L ? 'L' : unq === aliases.R ? 'R' : null;
      if (side) {
        out += text.slice(pos, t.start) + side;
        pos = t.end;
      }
      k += 2; // the column after the dot is qualified already
      continue;
    }
    if ((t.kind === 'ident' || t.kind === 'quoted') && toks[k - 1]?.text !== '.' && next?.text !== '(') {
      const inL = leftCols.includes(unq);
      const inR = rightCols.includes(unq);
      if (inL !== inR) {
        out += text.slice(pos, t.start) + `${inL ? 'L' : 'R'}.${t.text}`;
        pos = t.end;
      }
    }
  }
  return out + text.slice(pos);
}

/** `L.a = R.b` (either way round) as [a, b]. */
function keyPair(c: Condition, prefix: (t: string) => string): [string, string] | null {
  if (!c.eq) return null;
  const l = REF.exec(prefix(c.eq.left).trim());
  const r = REF.exec(prefix(c.eq.right).trim());
  if (!l || !r || l[1] === r[1]) return null;
  const [lc, rc] = l[1] === 'L' ? [l[2], r[2]] : [r[2], l[2]];
  return [unquoteIdent(lc), unquoteIdent(rc)];
}

/**
 * `L.rt BETWEEN R.rt - a AND R.rt + b` on the two event times as lower -a, upper b (ms); the
 * mirrored `R.rt BETWEEN L.rt + x AND L.rt + y` is the same bound as L.rt BETWEEN R.rt - y AND R.rt - x.
 * A column that is its input's event time plus an offset (a window's `window_end` is +1 ms, under
 * any name: Relation.times) bounds as that time: `L.rt BETWEEN R.end - 10s AND R.end` is
 * lower 1 - 10000 ms, upper 1 ms.
 */
function timeBound(c: Condition, prefix: (t: string) => string, left: Side, right: Side): TimeBound | null {
  if (!c.between) return null;
  const subject = offset(prefix(c.between.subject), null, left, right);
  if (!subject) return null;
  const otherSide = subject.side === 'L' ? 'R' : 'L';
  const low = offset(prefix(c.between.low), otherSide, left, right);
  const high = offset(prefix(c.between.high), otherSide, left, right);
  if (low === null || high === null) return null;
  // self.ts + s BETWEEN other.ts + lo AND other.ts + hi
  const [lo, hi] = [low.ms - subject.ms, high.ms - subject.ms];
  const regular = !subject.rowtime || !low.rowtime || !high.rowtime;
  return subject.side === 'L' ? { lower: lo, upper: hi, regular } : { lower: -hi, upper: -lo, regular };
}

/** `R.c`, `R.c + INTERVAL '5' SECOND`, `R.c - INTERVAL ...` (c a time column of that input) as its offset from the event time. */
function offset(
  text: string,
  side: 'L' | 'R' | null,
  left: Side,
  right: Side,
): { side: 'L' | 'R'; ms: number; rowtime: boolean } | null {
  const m = /^([LR])\.(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*)\s*(?:([+-])\s*INTERVAL\s+(.+))?$/is.exec(text.trim());
  if (!m || (side !== null && m[1] !== side)) return null;
  const rel = m[1] === 'L' ? left.rel : right.rel;
  const col = unquoteIdent(m[2]);
  const base = col === rel.rowtime ? 0 : rel.times?.[col];
  if (base === undefined) return null;
  const at = { side: m[1] as 'L' | 'R', rowtime: col === rel.rowtime };
  if (m[3] === undefined) return { ...at, ms: base };
  const ms = intervalMs(m[4]);
  return ms === null ? null : { ...at, ms: base + (m[3] === '-' ? -ms : ms) };
}

function signed(ms: number): string {
  return ms < 0 ? `-${weirDuration(-ms)}` : weirDuration(ms);
}

/**
 * The select list in Weir's form: `L.x AS x` is just `L.x` (Flink and Weir name it x), and a
 * window join's `DATE_FORMAT(L.window_start, <ISO>) AS window_start` (the export's ISO text) or
 * `L.window_start` is Weir's `window_start`.
 */
function joinSelect(
  selectItems: SelectItem[],
  prefix: (t: string) => string,
  windowed: boolean,
  inline: (t: string) => string,
): { select: string; columns: string[]; written: Array<{ expr: string; out: string }> } {
  const items: string[] = [];
  const columns: string[] = [];
  const refs: Array<{ expr: string; out: string }> = [];
  for (const item of selectItems) {
    // Both sides' bounds are the one window's: Weir's select names them without a side.
    const expr = windowed ? prefix(item.expr).replace(/\b[LR]\.(window_start|window_end)\b/g, '$1') : prefix(item.expr);
    const iso = windowed ? (ISO_BOUND.exec(expr) ?? /^(window_start|window_end)$/.exec(expr)) : null;
    const ref = REF.exec(expr);
    const own = iso ? iso[1] : ref ? unquoteIdent(ref[2]) : null;
    // Two inputs' columns of one name: Flink names the second x0 (then x1...), and so does the select here.
    let out = item.alias ?? own ?? item.expr;
    for (let n = 0; item.alias === null && columns.includes(out); n++) out = `${own ?? item.expr}${n}`;
    const written = iso ? iso[1] : inline(expr);
    const named = item.alias === null && (written !== expr || out !== (own ?? item.expr));
    items.push(
      named
        ? `${written} AS \`${out}\``
        : item.alias === null || item.alias === own
          ? written
          : `${written}${item.text.slice(item.expr.length)}`,
    );
    columns.push(out);
    refs.push({ expr, out });
  }
  return { select: items.join(', '), columns, written: refs };
}

/** `A.*` as one item per column of that input, in its order (Flink's expansion). */
function expandStars(
  q: SelectShape,
  aliases: { L: string | null; R: string | null },
  left: Relation,
  right: Relation,
): SelectItem[] {
  return q.items.flatMap((item) => {
    const m = /^(`(?:[^`]|``)*`|[A-Za-z_][A-Za-z0-9_$]*)\.\*$/.exec(item.expr.trim());
    const side = m ? unquoteIdent(m[1]) : null;
    const rel = side === null ? null : side === aliases.L ? left : side === aliases.R ? right : null;
    if (!m || !rel) return [item];
    return rel.columns.map((c) => {
      const expr = `${m[1]}.\`${c.replace(/`/g, '``')}\``;
      return { ...item, text: expr, expr, alias: null, column: c };
    });
  });
}
