/**
 * An inner join's condition that reads both inputs and is neither a key nor the event-time bound
 * (`L.num >= R.maxn`, `R.t BETWEEN L.a AND L.b`) holds or not for each matched pair: Flink
 * evaluates it on the pair, so it is a `filter` right after Weir's join (the same rows; an outer
 * join's unmatched rows would differ, so only inner and comma joins take one). The join writes
 * every column the condition reads (`L__x` when its select does not name it), and a `map` after
 * the filter keeps the select's own columns.
 */
import type { JobBuilder, Relation } from './builder.ts';
import type { SelectShape } from './query-shape.ts';
import { qualifiedRefs } from './qualifier.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';

const quote = (c: string): string => `\`${c.replace(/`/g, '``')}\``;

/** The `L.x` / `R.x` references of a condition (written with L./R.), each with its span. */
function refsOf(text: string): Array<{ ref: string; start: number; end: number }> {
  return qualifiedRefs(text)
    .filter((r) => /^[LR]$/.test(r.aliasText))
    .map((r) => ({ ref: `${r.alias}.${r.col}`, start: r.start, end: r.end }));
}

/**
 * The columns the conditions read: for each `L.x`, the name the join's select already writes it
 * under (an item that is just `L.x`), else a new item `L.x AS L__x` for the select.
 */
export function residualColumns(
  conditions: string[],
  written: Array<{ expr: string; out: string }>,
  taken: string[],
): { names: Map<string, string>; extra: Array<{ ref: string; out: string }> } {
  const names = new Map<string, string>();
  const extra: Array<{ ref: string; out: string }> = [];
  for (const { ref } of conditions.flatMap(refsOf)) {
    if (names.has(ref)) continue;
    const own = written.find((w) => w.expr.replace(/`/g, '') === ref);
    if (own) {
      names.set(ref, own.out);
      continue;
    }
    let out = ref.replace('.', '__');
    while (taken.includes(out) || extra.some((e) => e.out === out)) out += '_';
    names.set(ref, out);
    extra.push({ ref, out });
  }
  return { names, extra };
}

/** The filter after the join (and the map dropping the columns only the filter read). */
export function residualFilter(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  joined: Relation,
  conditions: string[],
  names: Map<string, string>,
  keep: string[],
): Relation {
  const where = conditions
    .map((c) => {
      let out = '';
      let pos = 0;
      for (const r of refsOf(c)) {
        out += c.slice(pos, r.start) + quote(names.get(r.ref)!);
        pos = r.end;
      }
      const text = out + c.slice(pos);
      return conditions.length > 1 ? `(${text})` : text;
    })
    .join(' AND ');
  const fid = b.freeId(`${name}_matched`);
  b.add({ id: fid, type: filterNode.type, config: { where } }, q.pos, null);
  b.connect(joined, fid);
  if (keep.length === joined.columns.length) return { ...joined, nodes: [fid] };
  const mid = b.freeId(`${name}_select`);
  b.add({ id: mid, type: mapNode.type, config: { select: keep.map(quote).join(', ') } }, q.pos, null);
  b.connect({ ...joined, nodes: [fid] }, mid);
  return { ...joined, nodes: [mid], columns: keep };
}
