import { compileCast } from './cast.ts';
import {
  constant,
  fail,
  make,
  numeric,
  requireBoolean,
  requireNumeric,
  type CompileContext,
} from './compile-context.ts';
import { FUNCTIONS, UNSUPPORTED_FUNCTIONS } from './functions.ts';
import { compileBinary } from './operators.ts';
import { paramProblem } from './function-params.ts';
import { coerceBranch, commonType, illegalMixing, type StaticType } from './common-type.ts';
import type { ColumnTypes, Compiled, Evaluator, Row, SqlAst } from './types.ts';
import { compare, toBool, toNumber, toTimestamp } from './values.ts';
import {
  Decimal,
  decimalFromDouble,
  decimalFromInteger,
  decimalFromLiteral,
  decimalNegate,
  rescale,
} from './decimal.ts';

/**
 * AST -> closure compiler. Each node becomes one `(row) => value` closure, built once; constant
 * sub-trees are folded. No user text is ever turned into code: closures only read properties
 * named by the parsed column identifiers.
 */
/** Functions whose result over INTs is an INT in Flink (MOD(i, 3), GREATEST(i, 1), SIGN(i)...). */
const INT_KEEPING = new Set(['MOD', 'NULLIF', 'GREATEST', 'LEAST', 'SIGN', 'COALESCE', 'IFNULL', 'IF', 'TRUNCATE']);
const isInt = (c: Compiled): boolean => c.type === 'BIGINT' && c.precision === 10;

export function compileExpr(node: SqlAst, ctx: CompileContext): Compiled {
  switch (node.type) {
    case 'column_ref':
      return compileColumn(node, ctx);
    case 'number':
    case 'bigint': {
      // SQL reads `1.005` as an exact DECIMAL(4, 3) and `1e3` as a DOUBLE (Flink, as Calcite).
      const raw = String(node.value);
      const dec = /[eE]/.test(raw) ? null : decimalFromLiteral(raw);
      if (dec !== null) return { ...constant(dec, 'DECIMAL'), precision: dec.precision, scale: dec.scale };
      const v = Number(raw);
      const isInt = Number.isInteger(v) && !/[.eE]/.test(raw);
      if (!isInt) return constant(v, 'DOUBLE');
      // `3` is an INT in Flink (DECIMAL(10, 0) in DECIMAL arithmetic), a larger one a BIGINT.
      return { ...constant(v, 'BIGINT'), precision: Math.abs(v) <= 2147483647 ? 10 : 19 };
    }
    case 'single_quote_string':
    case 'string':
      return constant(String(node.value).replace(/''/g, "'"), 'STRING'); // the parser keeps '' doubled
    case 'bool':
      return constant(node.value === true, 'BOOLEAN');
    case 'timestamp': {
      const ts = toTimestamp(String(node.value));
      if (ts === null) fail(ctx, `invalid TIMESTAMP literal '${String(node.value)}'`, node, 'TIMESTAMP');
      return constant(ts, 'TIMESTAMP');
    }
    case 'null':
      return constant(null, 'UNKNOWN');
    case 'binary_expr':
      return compileBinary(node, ctx, compileExpr);
    case 'unary_expr':
      return compileUnary(node, ctx);
    case 'case':
      return compileCase(node, ctx);
    case 'cast': {
      if (node.symbol && node.symbol !== 'as')
        fail(ctx, "write CAST(x AS type); '::' casts are not Flink SQL", node, '::');
      return compileCast(node, compileExpr(node.expr, ctx), ctx);
    }
    case 'function':
      return compileFunction(node, ctx);
    case 'aggr_func':
      return fail(
        ctx,
        `aggregate function ${String(node.name).toUpperCase()} is not allowed in ${ctx.noAggregatesIn}`,
        node,
        String(node.name),
      );
    case 'expr_list':
      return fail(ctx, 'a list of values is only allowed after IN', node, '(');
    case 'date':
    case 'time':
      return fail(
        ctx,
        `${String(node.type).toUpperCase()} literals are not supported: use TIMESTAMP '...'`,
        node,
        String(node.type),
      );
    default:
      return fail(ctx, `unsupported expression (${String(node.type).replace(/_/g, ' ')})`, node);
  }
}

function columnName(node: SqlAst): string {
  const c = node.column;
  if (typeof c === 'string') return c;
  return String(c?.expr?.value ?? c?.value ?? c);
}

function compileColumn(node: SqlAst, ctx: CompileContext): Compiled {
  const name = columnName(node);
  if (node.table)
    fail(
      ctx,
      `qualified column names are not supported: write \`${name}\` instead of ${node.table}.${name}`,
      node,
      String(node.table),
    );
  if (name === '*') fail(ctx, "'*' is only allowed on its own in a select list or in COUNT(*)", node, '*');
  if (!ctx.columns.includes(name)) ctx.columns.push(name);
  const read = columnReader(name);
  if (!Array.isArray(node.array_index) || node.array_index.length === 0)
    return typedColumn(read, ctx.columnTypes?.get(name));
  // a[1] (arrays are 1-based in Flink) and m['key'] reach into nested JSON values.
  let fn: Evaluator = read;
  for (const step of node.array_index as SqlAst[]) {
    const index = compileExpr(step.index, ctx);
    const inner = fn,
      idx = index.fn;
    fn = (row) => elementAt(inner(row), idx(row));
  }
  return { fn, type: 'UNKNOWN', constant: false };
}

/** A column of a known type: a DECIMAL column's numbers become exact Decimals of its scale. */
function typedColumn(read: Evaluator, t: ReturnType<ColumnTypes['get']>): Compiled {
  if (!t || t.type === 'UNKNOWN') return { fn: read, type: 'UNKNOWN', constant: false };
  if (t.type === 'DECIMAL' && t.scale !== undefined) {
    const p = t.precision ?? 38,
      s = t.scale;
    const fn: Evaluator = (row) => {
      const v = read(row);
      const n = typeof v === 'number' ? v : typeof v === 'string' ? toNumber(v) : null;
      if (n === null) return v;
      return (Number.isSafeInteger(n) ? rescale(decimalFromInteger(n), s, p) : decimalFromDouble(n, p, s)) ?? n;
    };
    return { fn, type: 'DECIMAL', constant: false, precision: p, scale: s };
  }
  const c: Compiled = { fn: read, type: t.type, constant: false };
  if (t.type === 'BIGINT' && t.precision !== undefined) c.precision = t.precision;
  return t.type === 'BIGINT' || t.type === 'DOUBLE' ? numeric(c) : c;
}

function elementAt(container: unknown, index: unknown): unknown {
  if (container === null || typeof container !== 'object' || index === null) return null;
  if (Array.isArray(container)) {
    return typeof index === 'number' && Number.isInteger(index) && index >= 1 ? (container[index - 1] ?? null) : null;
  }
  const key = typeof index === 'string' ? index : String(index);
  return Object.prototype.hasOwnProperty.call(container, key) ? ((container as Row)[key] ?? null) : null;
}

/** A direct property read; names that exist on Object.prototype must be own properties. */
export function columnReader(name: string): Evaluator {
  if (name in Object.prototype) {
    return (row) => (Object.prototype.hasOwnProperty.call(row, name) ? (row[name] ?? null) : null);
  }
  return (row) => {
    const v = row[name];
    return v === undefined ? null : v;
  };
}

function compileUnary(node: SqlAst, ctx: CompileContext): Compiled {
  const op = String(node.operator).toUpperCase();
  const arg = compileExpr(node.expr, ctx);
  const f = arg.fn;
  if (op === '-') {
    requireNumeric(ctx, arg, '-', node);
    return numeric(
      make(
        (row) => {
          const v = f(row);
          if (typeof v === 'number') return v === 0 ? 0 : -v;
          if (v instanceof Decimal) return decimalNegate(v);
          const n = toNumber(v);
          return n === null ? null : n === 0 ? 0 : -n;
        },
        arg.type === 'BIGINT' || arg.type === 'DOUBLE' || arg.type === 'DECIMAL' ? arg.type : 'UNKNOWN',
        [arg],
      ),
      arg,
    );
  }
  if (op === '+') {
    requireNumeric(ctx, arg, '+', node);
    return arg;
  }
  if (op === 'NOT') {
    requireBoolean(ctx, arg, 'NOT', node);
    return make(
      (row) => {
        const v = f(row);
        if (v === true) return false;
        if (v === false) return true;
        const b = toBool(v);
        return b === null ? null : !b;
      },
      'BOOLEAN',
      [arg],
    );
  }
  return fail(ctx, `unsupported operator ${op}`, node, op);
}

function compileCase(node: SqlAst, ctx: CompileContext): Compiled {
  const base = node.expr ? compileExpr(node.expr, ctx) : null;
  const whens: Evaluator[] = [];
  const inputs: Compiled[] = base ? [base] : [];
  const results: Compiled[] = [];
  const thenResults: Compiled[] = [];
  let elseResult: Compiled | null = null;
  for (const arm of node.args as SqlAst[]) {
    const cond = arm.type === 'else' ? null : compileExpr(arm.cond, ctx); // source order for `columns`
    const result = compileExpr(arm.result, ctx);
    inputs.push(result);
    results.push(result);
    if (cond === null) {
      elseResult = result;
      continue;
    }
    if (!base) requireBoolean(ctx, cond, 'WHEN', arm.cond);
    inputs.push(cond);
    whens.push(cond.fn);
    thenResults.push(result);
  }
  const common = commonType(results);
  if (!common) fail(ctx, illegalMixing('CASE', results), node, 'CASE');
  const type = common.type;
  const thens: Evaluator[] = thenResults.map((r) => coerceBranch(r, common).fn);
  const otherwise: Evaluator = elseResult ? coerceBranch(elseResult, common).fn : () => null;
  const n = whens.length;
  if (base) {
    const b = base.fn;
    return withType(
      make(
        (row) => {
          const v = b(row);
          for (let i = 0; i < n; i++) if (compare(v, whens[i](row)) === 0) return thens[i](row);
          return otherwise(row);
        },
        type,
        inputs,
      ),
      common,
    );
  }
  return withType(
    make(
      (row) => {
        for (let i = 0; i < n; i++) {
          const c = whens[i](row);
          if (c === true || (c !== false && c !== null && toBool(c) === true)) return thens[i](row);
        }
        return otherwise(row);
      },
      type,
      inputs,
    ),
    common,
  );
}

/** A result carries the common type's DECIMAL shape and its "is a number" mark. */
function withType(c: Compiled, t: StaticType): Compiled {
  if (t.precision !== undefined) c.precision = t.precision;
  if (t.scale !== undefined) c.scale = t.scale;
  if (t.numeric && c.type === 'UNKNOWN') c.numeric = true;
  return c;
}

/**
 * Functions whose result is one of some arguments (argument indexes): those must have a common
 * type, which is the result's type (the catalog's own `build` picks the first known one).
 */
const BRANCH_ARGS: Record<string, (n: number) => number[]> = {
  COALESCE: (n) => Array.from({ length: n }, (_, i) => i),
  IF: () => [1, 2],
};

const NUMERIC_FUNCTIONS = new Set([
  'ABS',
  'FLOOR',
  'CEIL',
  'CEILING',
  'ROUND',
  'MOD',
  'CHAR_LENGTH',
  'CHARACTER_LENGTH',
  'POWER',
  'SQRT',
]);

function functionName(node: SqlAst): string {
  const parts = node.name?.name;
  if (Array.isArray(parts))
    return parts
      .map((p: { value: string }) => p.value)
      .join('.')
      .toUpperCase();
  return String(node.name).toUpperCase();
}

function compileFunction(node: SqlAst, ctx: CompileContext): Compiled {
  const name = functionName(node);
  // The parser reads `NOT (x)` as a call of a function named NOT.
  if (name === 'NOT' && node.args?.value?.length === 1) {
    return compileUnary({ type: 'unary_expr', operator: 'NOT', expr: node.args.value[0] }, ctx);
  }
  if (node.over) fail(ctx, 'window functions (OVER) are not supported', node, 'OVER');
  const rawArgs: SqlAst[] = node.args?.value ?? [];
  // SUBSTRING(s FROM i FOR n) arrives as [s, 'from', i, 'for', n] with keyword markers.
  const markers = rawArgs.filter((a) => a.type === 'origin').map((a) => String(a.value).toUpperCase());
  const args = rawArgs.filter((a) => a.type !== 'origin');
  if (
    markers.length > 0 &&
    !(name === 'SUBSTRING' && (markers.join(' ') === 'FROM' || markers.join(' ') === 'FROM FOR'))
  ) {
    fail(ctx, `unsupported syntax in ${name}(...)`, node, name);
  }
  const spec = FUNCTIONS[name];
  if (!spec) {
    const why = UNSUPPORTED_FUNCTIONS[name];
    return fail(
      ctx,
      why ? `Flink's ${name} is not supported in Weir: ${why}` : `unknown function ${name}`,
      node,
      name.split('.').pop(),
    );
  }
  if (args.length < spec.min || args.length > spec.max) {
    const want =
      spec.min === spec.max
        ? `${spec.min}`
        : spec.max === Infinity
          ? `at least ${spec.min}`
          : `${spec.min} to ${spec.max}`;
    const plural = (spec.max === Infinity ? spec.min : spec.max) === 1 ? '' : 's';
    fail(ctx, `${name} expects ${want} argument${plural}, got ${args.length}`, node, name);
  }
  const compiled = args.map((a) => compileExpr(a, ctx));
  const typeProblem = paramProblem(name, spec, compiled);
  if (typeProblem) fail(ctx, typeProblem, node, name);
  const problem = spec.check?.(compiled);
  if (problem) fail(ctx, `${name}: ${problem}`, node, name);
  const branchIndexes = BRANCH_ARGS[name]?.(compiled.length);
  const branches = branchIndexes?.map((i) => compiled[i]);
  const common = branches ? commonType(branches) : undefined;
  if (common === null) fail(ctx, illegalMixing(name, branches), node, name);
  if (common) for (const i of branchIndexes) compiled[i] = coerceBranch(compiled[i], common);
  const built = spec.build(compiled);
  const result = make(built.fn, common?.type ?? built.type, compiled);
  if (common) return withType(result, common);
  if (built.precision !== undefined) {
    result.precision = built.precision;
    result.scale = built.scale;
  } else if (result.type === 'BIGINT' && /→ INT$/.test(spec.signature ?? '')) {
    result.precision = 10; // CHAR_LENGTH, POSITION...: Flink's INT, as the signature says
  } else if (result.type === 'BIGINT' && INT_KEEPING.has(name) && compiled.some(isInt)) {
    if (compiled.every((c) => c.type !== 'BIGINT' || isInt(c))) result.precision = 10;
  }
  return NUMERIC_FUNCTIONS.has(name) ? numeric(result) : result;
}
