/** Argument helpers shared by the scalar functions of text-functions.ts and time-functions.ts. */
import type { Compiled, FunctionSpec, SqlType } from './types.ts';
import { toNumber, toText } from './values.ts';

export const text = (v: unknown): string | null => (typeof v === 'string' ? v : toText(v));

export const int = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : toNumber(v);
  return n === null ? null : Math.trunc(n);
};

/** `what` must be of one of `types` when its static type is known. */
export function expectType(arg: Compiled | undefined, types: SqlType[], what: string): string | null {
  if (!arg || arg.type === 'UNKNOWN' || types.includes(arg.type)) return null;
  return `${what} must be ${types.join(' or ')}, got ${arg.type}`;
}

/** A constant argument's value, or undefined when it varies per row. */
export const constantOf = (a: Compiled | undefined): unknown => (a?.constant ? a.fn({}) : undefined);

/** Compiles a per-row pattern once per distinct text (patterns usually repeat). */
export function cached<T>(compile: (p: string) => T): (p: string) => T {
  const cache = new Map<string, T>();
  return (p) => {
    let hit = cache.get(p);
    if (hit === undefined) {
      if (cache.size > 1000) cache.clear();
      hit = compile(p);
      cache.set(p, hit);
    }
    return hit;
  };
}

/**
 * A function that is NULL when any argument is NULL (most of Flink's scalar functions): `compute`
 * gets the argument values, none of them NULL, and returns the result (or NULL).
 */
export function strict(
  spec: Omit<FunctionSpec, 'build'> & { type: SqlType },
  compute: (values: unknown[]) => unknown,
): FunctionSpec {
  const { type, ...rest } = spec;
  return {
    ...rest,
    build: (args) => {
      const fns = args.map((a) => a.fn);
      const n = fns.length;
      return {
        fn: (row) => {
          const values = new Array<unknown>(n);
          for (let i = 0; i < n; i++) {
            const v = fns[i](row);
            if (v === null || v === undefined) return null;
            values[i] = v;
          }
          return compute(values);
        },
        type,
      };
    },
  };
}
