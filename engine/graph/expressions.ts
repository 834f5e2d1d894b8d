/**
 * What the validator needs to know about the SQL fragments in node configs. Syntax and referenced
 * columns come from the expression compiler (engine/sql); the output names of a select list or an
 * aggregate list are read here from its top-level structure, which needs no full parse.
 * Browser-safe.
 */

import { splitTopLevel } from '../nodes/text.ts';
import type { ColumnTypes } from '../sql/index.ts';

export { splitTopLevel };

export type ExpressionKind = 'where' | 'select' | 'keyBy' | 'aggregates' | 'orderBy';

/** The part of engine/sql the validator uses; injectable so structure checks need no compiler. */
export interface ExpressionChecker {
  /**
   * null when `text` is a valid expression of `kind`; otherwise the first error. `types`: the
   * static types of the input columns, where known (type errors are then errors too). A cache must
   * key on them as well (`typesKey`).
   */
  checkExpression(kind: ExpressionKind, text: string, types?: ColumnTypes): { message: string; column?: number } | null;
  /** Input columns `text` reads (only called when checkExpression returned null). */
  referencedColumns(kind: ExpressionKind, text: string): string[];
  /**
   * Output columns of a valid select list (given its input columns, null = unknown), aggregate
   * list or keyBy list. Optional: without it they are read from the text's top-level structure.
   */
  outputColumns?(
    kind: 'select' | 'aggregates' | 'keyBy',
    text: string,
    input: readonly string[] | null,
  ): readonly string[] | null;
}

/** A stable text for a set of column types, for caches of checkExpression results. */
export function typesKey(types: ColumnTypes | undefined): string {
  if (!types || types.size === 0) return '';
  return [...types]
    .map(([n, t]) => `${n}\u0000${t.type}\u0000${t.precision ?? ''}\u0000${t.scale ?? ''}\u0000${t.composite ?? ''}`)
    .sort()
    .join('\u0001');
}

/** Output columns through `checker`, or from the list's structure when it cannot tell. */
export function outputColumnsOf(
  checker: ExpressionChecker,
  kind: 'select' | 'aggregates' | 'keyBy',
  text: string,
  input: readonly string[] | null,
): readonly string[] | null {
  if (checker.outputColumns) return checker.outputColumns(kind, text, input);
  if (kind === 'keyBy') return keyColumns(text);
  const names = outputNames(text);
  if (!names.includes('*')) return names;
  if (!input) return null;
  const extra = names.filter((n) => n !== '*' && !input.includes(n));
  return [...input, ...extra];
}

function unquote(name: string): string {
  const q = name[0];
  if ((q === '`' || q === '"') && name.endsWith(q) && name.length >= 2) return name.slice(1, -1);
  return name;
}

const ALIAS = /\s+AS\s+(`[^`]+`|"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)\s*$/i;
const BARE = /^(?:[A-Za-z_][A-Za-z0-9_$]*\.)?(`[^`]+`|"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)$/;

/**
 * Output column names of a select or aggregate list, as Flink names them: the alias, else the
 * column name of a bare column reference, else `EXPR$<position>`. `*` is returned as is.
 */
export function outputNames(list: string): string[] {
  return splitTopLevel(list).map((item, i) => {
    if (item === '*') return '*';
    const alias = ALIAS.exec(item);
    if (alias) return unquote(alias[1]);
    const bare = BARE.exec(item);
    if (bare) return unquote(bare[1]);
    return `EXPR$${i}`;
  });
}

/** Column names of a `keyBy` list (`user, region`). */
export function keyColumns(keyBy: string | undefined): string[] {
  if (!keyBy) return [];
  return splitTopLevel(keyBy).map(unquote);
}
