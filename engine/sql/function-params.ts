/**
 * A function's arguments against the parameter families its spec declares (FunctionSpec.params),
 * as Calcite's operand type checkers accept them in Flink, which runs its validator without
 * implicit type coercion: a BIGINT is no STRING, a STRING no number.
 *
 * Rules: an argument of UNKNOWN type (an untyped column, NULL) passes any family, except that one
 * known to be numeric passes only NUMERIC, INTEGER and ANY. TIMESTAMP also takes a STRING: Weir's
 * rows carry timestamps as ISO strings (window_start, sampled event-time columns are STRING).
 * The last family repeats for variadic functions. A spec without `params` is not checked.
 */
import { flinkTypeName } from './compile-context.ts';
import type { Compiled, FunctionSpec, ParamFamily, SqlType } from './types.ts';

const ACCEPTS: Record<ParamFamily, ReadonlySet<SqlType>> = {
  STRING: new Set(['STRING']),
  NUMERIC: new Set(['BIGINT', 'DOUBLE', 'DECIMAL']),
  INTEGER: new Set(['BIGINT']),
  BOOLEAN: new Set(['BOOLEAN']),
  TIMESTAMP: new Set(['TIMESTAMP', 'STRING']),
  ANY: new Set(['BIGINT', 'DOUBLE', 'DECIMAL', 'STRING', 'BOOLEAN', 'TIMESTAMP']),
};

function accepts(family: ParamFamily, arg: Compiled): boolean {
  if (family === 'ANY') return true;
  if (arg.type === 'UNKNOWN') return !arg.numeric || family === 'NUMERIC' || family === 'INTEGER';
  return ACCEPTS[family].has(arg.type);
}

/**
 * Flink's message for arguments the spec's families refuse, or null when they fit:
 * `Cannot apply 'UPPER' to arguments of type 'UPPER(<BIGINT>)'. Supported form(s): 'UPPER(STRING) → STRING'`.
 */
export function paramProblem(
  name: string,
  spec: Pick<FunctionSpec, 'params' | 'signature'>,
  args: readonly Compiled[],
): string | null {
  const params = spec.params;
  if (!params || params.length === 0) return null;
  const ok = args.every((a, i) => accepts(params[Math.min(i, params.length - 1)], a));
  if (ok) return null;
  const types = args.map((a) => `<${flinkTypeName(a)}>`).join(', ');
  const forms = spec.signature ? `. Supported form(s): '${spec.signature}'` : '';
  return `Cannot apply '${name}' to arguments of type '${name}(${types})'${forms}`;
}
