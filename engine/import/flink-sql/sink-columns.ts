/**
 * INSERT INTO writes the query's columns into the sink table's by position, under the sink's names
 * (Flink: `SELECT B.price, B.bidder` into `(bidder, price)` writes price as bidder). Weir's sinks
 * write the rows they get, so where the query's column names differ from the sink's, a `map`
 * renames them in front of the sink (and writes the computed columns the sink gets). A query whose column count differs from the sink's is an
 * error, as it is on Flink.
 */
import type { JobBuilder, Relation } from './builder.ts';
import type { Pos } from './tree.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';

const quote = (c: string): string => `\`${c.replace(/`/g, '``')}\``;

export function toSinkColumns(b: JobBuilder, target: string, rel: Relation, sink: Relation, pos: Pos): Relation {
  const want = sink.columns;
  if (want.length === 0 || rel.columns.length === 0) return rel;
  if (rel.columns.length !== want.length) {
    b.problem(
      pos,
      `INSERT INTO ${target}: the query writes ${rel.columns.length} columns (${rel.columns.join(', ')}) into the table's ${want.length} (${want.join(', ')})`,
      'error',
    );
    return rel;
  }
  const computed = (c: string): boolean => rel.computed?.[c] !== undefined;
  if (rel.columns.every((c, k) => c === want[k] && !computed(c))) return rel;
  const id = b.freeId(`${target}_columns`);
  // A computed column the sink gets is written here (its physical columns are in the row).
  const value = (c: string): string => (computed(c) ? `(${rel.computed![c]})` : quote(c));
  const select = rel.columns
    .map((c, k) => (c === want[k] && !computed(c) ? quote(c) : `${value(c)} AS ${quote(want[k])}`))
    .join(', ');
  b.add({ id, type: mapNode.type, config: { select } }, pos, null);
  b.connect(rel, id);
  return { nodes: [id], rowtime: null, columns: [...want] };
}
