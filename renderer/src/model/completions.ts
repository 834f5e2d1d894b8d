/**
 * Completions for the inspector's SQL fields: the input's columns with their Flink types, the
 * engine's function catalog (engine/sql/functions.ts) with each function's signature, the
 * aggregates where a field takes them, and keywords. Ranked: columns, then the common functions in
 * the order SQL_FUNCTIONS lists them, then the rest of the catalog alphabetically, then keywords.
 */
import { FUNCTIONS } from '../../../engine/sql/functions.ts';
import type { FunctionSpec } from '../../../engine/sql/types.ts';
import type { AggregateFn } from '../../../engine/sql/index.ts';
import { SQL_FUNCTIONS, SQL_KEYWORDS } from './highlight.ts';

export interface Completion {
  label: string;
  kind: 'column' | 'function' | 'aggregate' | 'keyword';
  /** A column's type, a function's signature. */
  detail: string | null;
  /** The text that replaces the word being typed (a function opens its parenthesis). */
  insert: string;
}

export interface TypedColumn {
  name: string;
  /** Flink SQL type, or null when unknown. */
  type: string | null;
}

const MAX_ITEMS = 8;

/**
 * Flink's aggregate functions as Weir's aggregates compile them (engine/sql/aggregates.ts); keyed
 * by AggregateFn, so an aggregate the engine adds does not compile here until it has a signature.
 */
const AGGREGATE_SIGNATURES: Readonly<Record<AggregateFn, string>> = {
  COUNT: 'COUNT(* | [DISTINCT] value) → BIGINT NOT NULL',
  SUM: 'SUM([DISTINCT] numeric) → numeric',
  AVG: 'AVG([DISTINCT] numeric) → numeric',
  MIN: 'MIN(value) → value',
  MAX: 'MAX(value) → value',
  VAR_POP: 'VAR_POP(numeric) → numeric (population variance)',
  VAR_SAMP: 'VAR_SAMP(numeric) → numeric (sample variance)',
  VARIANCE: 'VARIANCE(numeric) → numeric (sample variance)',
  STDDEV_POP: 'STDDEV_POP(numeric) → numeric (population standard deviation)',
  STDDEV_SAMP: 'STDDEV_SAMP(numeric) → numeric (sample standard deviation)',
  FIRST_VALUE: 'FIRST_VALUE(value) → value (the first row of the group)',
  LAST_VALUE: 'LAST_VALUE(value) → value (the last row of the group)',
  LISTAGG: "LISTAGG(s STRING[, separator STRING]) → STRING (separator ',')",
};

/** A signature for a catalog function that does not declare one: its parameter families. */
export function signatureOf(name: string, spec: FunctionSpec): string {
  if (spec.signature) return spec.signature;
  const params = spec.params;
  const n = spec.max === Infinity ? Math.max(spec.min, 1) : spec.max;
  const args = Array.from({ length: n }, (_, i) => {
    const family = params ? (params[Math.min(i, params.length - 1)] ?? 'ANY') : null;
    const arg = family && family !== 'ANY' ? family : `arg${i + 1}`;
    return i >= spec.min ? `[${arg}]` : arg;
  });
  return `${name}(${args.join(', ')}${spec.max === Infinity ? ', ...' : ''})`;
}

/** The catalog's callable functions in completion order, with their signatures (computed once). */
export const FUNCTION_COMPLETIONS: ReadonlyArray<Completion> = (() => {
  const names = Object.keys(FUNCTIONS);
  const common = SQL_FUNCTIONS.filter((f) => f in FUNCTIONS);
  const rest = names.filter((f) => !common.includes(f)).sort();
  return (
    [...common, ...rest]
      .map((name) => ({
        label: name,
        kind: 'function' as const,
        detail: signatureOf(name, FUNCTIONS[name]),
        insert: `${name}(`,
      }))
      // An entry with a syntax of its own (`s IS JSON`, registered as IS_JSON) is no call to insert.
      .filter((c) => c.detail.startsWith(`${c.label}(`))
  );
})();

const AGGREGATES: ReadonlyArray<Completion> = Object.entries(AGGREGATE_SIGNATURES).map(([name, detail]) => ({
  label: name,
  kind: 'aggregate' as const,
  detail,
  insert: `${name}(`,
}));

const KEYWORDS: ReadonlyArray<Completion> = [...SQL_KEYWORDS].map((k) => ({
  label: k,
  kind: 'keyword' as const,
  detail: null,
  insert: k,
}));

/**
 * Candidates for the word being typed. `aggregates`: the field takes aggregate calls (COUNT, SUM,
 * ...). A column's name keeps its case; functions and keywords match case-insensitively.
 */
export function completions(
  prefix: string,
  columns: readonly TypedColumn[],
  opts: { aggregates?: boolean } = {},
): Completion[] {
  if (prefix === '') return [];
  const p = prefix.toLowerCase();
  const matches = (label: string) => label.toLowerCase().startsWith(p) && label.toLowerCase() !== p;
  const out: Completion[] = [];
  const seen = new Set<string>();
  const add = (c: Completion) => {
    if (out.length >= MAX_ITEMS || seen.has(c.label.toUpperCase()) || !matches(c.label)) return;
    seen.add(c.label.toUpperCase());
    out.push(c);
  };
  for (const c of columns) add({ label: c.name, kind: 'column', detail: c.type, insert: c.name });
  if (opts.aggregates) AGGREGATES.forEach(add);
  FUNCTION_COMPLETIONS.forEach(add);
  KEYWORDS.forEach(add);
  return out;
}

/** The identifier being typed just before `caret` (for completions), with where it starts. */
export function wordBefore(text: string, caret: number): { word: string; start: number } {
  let s = caret;
  while (s > 0 && /[\w]/.test(text[s - 1])) s--;
  // A join's `L.` / `R.` prefix belongs to the word, so `L.us` completes to `L.user`.
  if (s >= 2 && text[s - 1] === '.' && /[LR]/.test(text[s - 2]) && (s === 2 || !/[\w.]/.test(text[s - 3]))) s -= 2;
  return { word: text.slice(s, caret), start: s };
}
