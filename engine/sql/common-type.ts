/**
 * The common type of the branches of CASE, COALESCE and IF, as Calcite's `leastRestrictive` gives
 * it in Flink: numbers widen (INT < BIGINT < DECIMAL < DOUBLE), any other type only meets itself,
 * and a branch of unknown type (NULL, an untyped column) meets anything. Branches that have no
 * common type are refused with Calcite's words ("Illegal mixing of types in CASE or COALESCE
 * statement"), so a CASE never claims STRING for a value that may be a BOOLEAN.
 */
import type { Compiled, SqlType } from './types.ts';
import { flinkTypeName } from './compile-context.ts';
import { toJsValue } from './decimal.ts';

export type StaticType = Pick<Compiled, 'type' | 'precision' | 'scale' | 'numeric'>;

const NUMBERS: ReadonlySet<SqlType> = new Set(['BIGINT', 'DECIMAL', 'DOUBLE']);

/** The common type of `types`, or null when two of them do not meet. */
export function commonType(types: readonly StaticType[]): StaticType | null {
  const known = types.filter((t) => t.type !== 'UNKNOWN');
  const unknownNumber = types.some((t) => t.type === 'UNKNOWN' && t.numeric);
  if (known.length === 0) return unknownNumber ? { type: 'UNKNOWN', numeric: true } : { type: 'UNKNOWN' };
  if (known.every((t) => NUMBERS.has(t.type))) {
    // An untyped number may hold a fraction: the result is a number of unknown kind.
    if (unknownNumber) return { type: 'UNKNOWN', numeric: true };
    if (known.some((t) => t.type === 'DOUBLE')) return { type: 'DOUBLE' };
    if (known.some((t) => t.type === 'DECIMAL')) {
      const digits = (t: StaticType) =>
        t.type === 'DECIMAL' ? (t.precision ?? 38) - (t.scale ?? 0) : (t.precision ?? 19);
      const scale = Math.max(...known.map((t) => (t.type === 'DECIMAL' ? (t.scale ?? 0) : 0)));
      return { type: 'DECIMAL', precision: Math.min(38, Math.max(...known.map(digits)) + scale), scale };
    }
    return known.every((t) => t.precision === 10) ? { type: 'BIGINT', precision: 10 } : { type: 'BIGINT' };
  }
  if (unknownNumber) return null;
  const first = known[0].type;
  if (known.every((t) => t.type === first)) return { type: first };
  // Weir's TIMESTAMP values are ISO strings: a TIMESTAMP meets a STRING as a STRING.
  if (known.every((t) => t.type === 'STRING' || t.type === 'TIMESTAMP')) return { type: 'STRING' };
  return null;
}

/** Calcite's refusal, with the branch types that do not meet. */
export function illegalMixing(what: string, types: readonly StaticType[]): string {
  const names = [...new Set(types.filter((t) => t.type !== 'UNKNOWN' || t.numeric).map(flinkTypeName))];
  return `Illegal mixing of types in ${what}: ${names.join(', ')}`;
}

/**
 * `c` as a branch of a result of type `to`: a DECIMAL branch of a DOUBLE result gives doubles (its
 * exact Decimals would otherwise leave an expression typed DOUBLE). Anything else is unchanged.
 */
export function coerceBranch(c: Compiled, to: StaticType): Compiled {
  if (to.type !== 'DOUBLE' || c.type !== 'DECIMAL') return c;
  const f = c.fn;
  return { ...c, type: 'DOUBLE', fn: (row) => toJsValue(f(row)) };
}
