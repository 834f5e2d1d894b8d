/**
 * What the importer reads a query into: a SELECT's items, FROM (a table, a window table function, a
 * join or a subquery), conditions and GROUP BY, or a UNION ALL of such SELECTs. query.ts and
 * join-from.ts read the parse tree into these shapes (a join's sides are queries again); the node
 * builders (aggregate.ts, joins.ts, topn.ts, views.ts) read the shapes.
 */
import type { Ctx, Pos } from './tree.ts';

export interface SelectItem {
  text: string;
  expr: string;
  alias: string | null;
  column: string | null;
  pos: Pos;
  /** The expression's parse tree (an aggregate's CASE WHEN is read from it). */
  ctx: Ctx | null;
  /** `ROW_NUMBER() OVER (...)`: the only window function Weir has a node for (topn). */
  over: OverCall | null;
}
/** `fn() OVER (PARTITION BY ... ORDER BY ...)`: the partition columns and the ORDER BY as written. */
export interface OverCall {
  fn: string;
  partitionBy: string[];
  orderBy: string;
  pos: Pos;
}
export interface WindowCall {
  fn: string;
  table: string;
  timeCol: string;
  intervals: number[];
  partitionBy: string[];
  pos: Pos;
}
export interface GroupWindow {
  fn: string;
  timeCol: string;
  intervals: number[];
}

export interface SelectShape {
  kind: 'select';
  pos: Pos;
  items: SelectItem[];
  star: boolean;
  from:
    | { table: string }
    | { tvf: WindowCall }
    | { join: JoinFrom }
    | { subquery: QueryShape; alias: string | null; pos: Pos }
    | { other: string; pos: Pos };
  where: string | null;
  /** WHERE split at its top-level ANDs (a join's key equalities and time bounds are read from them). */
  conditions: Condition[];
  groupBy: Array<{ column: string } | { window: GroupWindow } | { other: string }> | null;
  /** Clauses Weir has no node for (HAVING, ORDER BY, JOIN...), with positions. */
  unsupported: Array<{ what: string; pos: Pos }>;
}
export interface UnionShape {
  kind: 'union';
  pos: Pos;
  branches: QueryShape[];
  all: boolean;
}
export type QueryShape = SelectShape | UnionShape | { kind: 'other'; pos: Pos; text: string };

export interface JoinSide {
  /** `AS L`: the name the conditions and the select use for this side. */
  alias: string | null;
  /** A table or view name, or null for a subquery. */
  table: string | null;
  query: QueryShape | null;
  pos: Pos;
}

export interface JoinFrom {
  /** `comma` is `a, b` (conditions in WHERE); `other` a join Weir has no node for (CROSS, NATURAL...). */
  kind: 'inner' | 'left' | 'right' | 'full' | 'comma' | 'other';
  keyword: string;
  left: JoinSide;
  right: JoinSide;
  on: Condition[];
  /** More than two relations (`a JOIN b JOIN c`): Weir's joins have two inputs. */
  nested: boolean;
  pos: Pos;
}

export interface Condition {
  text: string;
  pos: Pos;
  /** `x = y`. */
  eq: { left: string; right: string } | null;
  /** `x BETWEEN low AND high`. */
  between: { subject: string; low: string; high: string } | null;
}
