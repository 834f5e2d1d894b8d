/**
 * A derived table (`FROM (SELECT ...) AS q`, or a join input `(SELECT ...) AS q`) is an anonymous
 * view: its query is imported the way CREATE VIEW's is (views.ts `importQuery`, passed in so that
 * this file does not import views.ts back), its relation is registered under a name no script
 * writes, and the outer query reads that name instead. The alias scopes the subquery's columns: an
 * outer `q.x` must be a column the subquery produces, else an error at `q.x` (line and column).
 */
import type { JobBuilder, Relation } from './builder.ts';
import type { Origin } from './statements.ts';
import type { JoinFrom, JoinSide, QueryShape, SelectShape } from './query-shape.ts';
import type { Pos } from './tree.ts';
import { qualifiedRefs, unqualified } from './qualifier.ts';

export type ImportView = (
  b: JobBuilder,
  name: string,
  q: QueryShape,
  origin: Origin | null,
  pos: Pos,
) => Relation | null;

type Derived = SelectShape & { from: { subquery: QueryShape; alias: string | null; pos: Pos } };

/** The subquery imported as an anonymous view; the name its relation is registered under, or null. */
function deriveTable(
  b: JobBuilder,
  outer: string,
  alias: string | null,
  sub: QueryShape,
  pos: Pos,
  importView: ImportView,
): string | null {
  const rel = importView(b, `${outer}_${alias ?? 'subquery'}`, sub, null, pos);
  if (!rel) return null;
  // Parentheses and spaces: no unquoted table name of a script looks like this.
  let key = `(subquery ${alias ?? ''} of ${outer})`;
  for (let n = 2; b.relations.has(key); n++) key = `(subquery ${alias ?? ''} of ${outer} #${n})`;
  b.relations.set(key, rel);
  return key;
}

/**
 * `SELECT ... FROM (SELECT ...) [AS q] ...` as the same SELECT over the subquery's relation, its
 * `q.x` read as `x` (as a single table's alias is); null when the subquery could not be imported.
 */
export function fromDerived(b: JobBuilder, name: string, q: Derived, importView: ImportView): SelectShape | null {
  const { subquery, alias, pos } = q.from;
  const key = deriveTable(b, name, alias, subquery, pos, importView);
  if (!key) return null;
  const rel = b.relations.get(key)!;
  if (alias !== null) checkQualified(b, name, readsOf(q), alias, rel);
  const shape: SelectShape = { ...q, from: { table: key } };
  const bare = alias === null ? shape : unqualified(shape, alias);
  for (const i of bare.items)
    if (i.column !== null && !produces(rel, i.column))
      b.problem(i.pos, notProduced(name, i.column, alias ?? 'in FROM', rel), 'error');
  for (const g of bare.groupBy ?? [])
    if ('column' in g && !produces(rel, g.column))
      b.problem(q.pos, notProduced(name, g.column, alias ?? 'in FROM', rel), 'error');
  return bare;
}

/** A join whose inputs may be subqueries: each (but a window join's window table function) a derived table. */
export function joinOfDerived(
  b: JobBuilder,
  name: string,
  q: SelectShape,
  join: JoinFrom,
  importView: ImportView,
): JoinFrom | null {
  const sides: JoinSide[] = [];
  for (const side of [join.left, join.right]) {
    if (side.query === null || isWindowTvf(side.query)) {
      sides.push(side);
      continue;
    }
    const key = deriveTable(b, name, side.alias, side.query, side.pos, importView);
    if (!key) return null;
    if (side.alias !== null) checkQualified(b, name, [...readsOf(q), ...join.on], side.alias, b.relations.get(key)!);
    sides.push({ ...side, table: key, query: null });
  }
  return { ...join, left: sides[0], right: sides[1] };
}

/** A window join's input: `(SELECT * FROM TABLE(TUMBLE(TABLE t, ...)))`, read by joins.ts as it is. */
function isWindowTvf(q: QueryShape): boolean {
  return q.kind === 'select' && q.star && q.items.length === 0 && q.where === null && 'tvf' in q.from;
}

/** The texts of a SELECT that name columns, each with where it starts in the script. */
function readsOf(q: SelectShape): Array<{ text: string; pos: Pos }> {
  return [...q.items.map((i) => ({ text: i.text, pos: i.pos })), ...q.conditions];
}

/** Every `alias.x` in the texts must be a column the derived relation has. */
function checkQualified(
  b: JobBuilder,
  name: string,
  texts: Array<{ text: string; pos: Pos }>,
  alias: string,
  rel: Relation,
): void {
  for (const { text, pos } of texts)
    for (const r of qualifiedRefs(text))
      if (r.alias === alias && !produces(rel, r.col))
        b.problem(posIn(pos, text, r.start), notProduced(name, text.slice(r.start, r.end), alias, rel), 'error');
}

function produces(rel: Relation, column: string): boolean {
  // The event-time column may be kept beside the row rather than in `columns` (a window's window_time).
  return (
    rel.columns.length === 0 ||
    rel.columns.includes(column) ||
    column === rel.rowtime ||
    rel.computed?.[column] !== undefined
  );
}

function notProduced(name: string, ref: string, alias: string, rel: Relation): string {
  return `'${name}': ${ref} is not a column of the subquery ${alias} (it produces ${rel.columns.join(', ')})`;
}

/** The script position of `offset` within `text`, which starts at `pos`. */
function posIn(pos: Pos, text: string, offset: number): Pos {
  const before = text.slice(0, offset).split('\n');
  return before.length === 1
    ? { line: pos.line, column: pos.column + offset }
    : { line: pos.line + before.length - 1, column: before[before.length - 1].length + 1 };
}
