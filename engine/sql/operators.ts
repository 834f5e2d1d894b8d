import {
  cannotApplyInfix,
  constant,
  fail,
  make,
  numeric,
  requireBoolean,
  requireNumeric,
  type CompileContext,
} from './compile-context.ts';
import type { Compiled, Evaluator, SqlAst, SqlType } from './types.ts';
import { compare, likeToRegExp, toBool, toText } from './values.ts';
import { arithmetic as evaluateArithmetic, type ArithmeticOp } from './arithmetic.ts';
import { decimalResultType } from './decimal.ts';

/**
 * Binary operators. Each closure checks the common case (both numbers, both booleans) inline and
 * falls back to the coercing helpers, so the hot path neither allocates nor calls out.
 *
 * NULL rules: arithmetic, comparison, LIKE and || give NULL when an operand is NULL; AND/OR use
 * three-valued logic; IN and BETWEEN follow the SQL definitions (x IN (1, NULL) is NULL when no
 * element matches). Arithmetic types and division by zero: arithmetic.ts.
 */
/** Compiles an operand: compile.ts's dispatcher, passed in so that this file does not import it. */
export type OperandCompiler = (node: SqlAst, ctx: CompileContext) => Compiled;

export function compileBinary(node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const op = String(node.operator).toUpperCase();
  switch (op) {
    case 'AND':
    case 'OR':
      return logical(op, node, ctx, compileExpr);
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return arithmetic(op, node, ctx, compileExpr);
    case '=':
    case '<>':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      // Flink compares a STRING with a number (the parity corpus runs `a > 1` over a STRING column).
      return comparison(op, compileExpr(node.left, ctx), compileExpr(node.right, ctx));
    case '||': {
      const l = compileExpr(node.left, ctx),
        r = compileExpr(node.right, ctx);
      if (!stringOrUnknown(l) || !stringOrUnknown(r)) cannotApplyInfix(ctx, op, l, r, node);
      return concat2(l, r);
    }
    case 'LIKE':
    case 'NOT LIKE':
      return like(op === 'NOT LIKE', node, ctx, compileExpr);
    case 'IN':
    case 'NOT IN':
      return inList(op === 'NOT IN', node, ctx, compileExpr);
    case 'BETWEEN':
    case 'NOT BETWEEN':
      return between(op === 'NOT BETWEEN', node, ctx, compileExpr);
    case 'IS':
    case 'IS NOT':
      return isTest(op === 'IS NOT', node, ctx, compileExpr);
    case 'IS DISTINCT FROM':
    case 'IS NOT DISTINCT FROM':
      return distinctFrom(op === 'IS DISTINCT FROM', node, ctx, compileExpr);
    default:
      return fail(ctx, `unsupported operator ${op}`, node, op.split(' ')[0]);
  }
}

function logical(op: 'AND' | 'OR', node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const l = compileExpr(node.left, ctx);
  const r = compileExpr(node.right, ctx);
  requireBoolean(ctx, l, op, node);
  requireBoolean(ctx, r, op, node);
  const lf = l.fn,
    rf = r.fn;
  const stop = op === 'OR'; // the value that decides the result on its own
  return make(
    (row) => {
      let a = lf(row);
      if (a === stop) return stop;
      if (a !== !stop) {
        a = toBool(a);
        if (a === stop) return stop;
      }
      let b = rf(row);
      if (b === stop) return stop;
      if (b !== !stop) {
        b = toBool(b);
        if (b === stop) return stop;
      }
      return a === null || b === null ? null : !stop;
    },
    'BOOLEAN',
    [l, r],
  );
}

function arithmetic(op: string, node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const l = compileExpr(node.left, ctx);
  const r = compileExpr(node.right, ctx);
  requireNumeric(ctx, l, op, node);
  requireNumeric(ctx, r, op, node);
  // Flink casts no STRING to a number implicitly (its validator runs without type coercion).
  if (l.type === 'STRING' || r.type === 'STRING') cannotApplyInfix(ctx, op, l, r, node);
  const lf = l.fn,
    rf = r.fn;
  const type = arithmeticType(l.type, r.type);
  // Statically DOUBLE (a DOUBLE CAST, POWER...): a whole-number value still divides as a double.
  const asDouble = type === 'DOUBLE';
  const o = op as ArithmeticOp;
  let fn: Evaluator;
  if (op === '+' && !asDouble) {
    fn = (row) => {
      const a = lf(row),
        b = rf(row);
      if (typeof a === 'number' && typeof b === 'number') return a + b;
      return evaluateArithmetic(o, a, b, false);
    };
  } else {
    const pl = intPrecision(l),
      pr = intPrecision(r);
    fn = (row) => evaluateArithmetic(o, lf(row), rf(row), asDouble, pl, pr);
  }
  const out = numeric(make(fn, type, [l, r]));
  // INT op INT is an INT in Flink (Calcite's integer arithmetic); with a BIGINT it is a BIGINT.
  if (type === 'BIGINT' && intPrecision(l) === 10 && intPrecision(r) === 10) out.precision = 10;
  if (type === 'DECIMAL') {
    const d = decimalResultType(op, decimalShape(l), decimalShape(r));
    out.precision = d.precision;
    out.scale = d.scale;
  }
  return out;
}

/** `||` takes strings: a statically typed number, boolean or timestamp is refused as in Flink. */
function stringOrUnknown(c: Compiled): boolean {
  return c.type === 'STRING' || (c.type === 'UNKNOWN' && !c.numeric);
}

export function comparison(op: string, l: Compiled, r: Compiled): Compiled {
  const lf = l.fn,
    rf = r.fn;
  let fn: Evaluator;
  switch (op) {
    case '=':
      fn = (row) => {
        const a = lf(row),
          b = rf(row);
        if (typeof a === 'number' && typeof b === 'number') return a === b;
        const c = compare(a, b);
        return c === null ? null : c === 0;
      };
      break;
    case '<>':
    case '!=':
      fn = (row) => {
        const a = lf(row),
          b = rf(row);
        if (typeof a === 'number' && typeof b === 'number') return a !== b;
        const c = compare(a, b);
        return c === null ? null : c !== 0;
      };
      break;
    case '<':
      fn = (row) => {
        const a = lf(row),
          b = rf(row);
        if (typeof a === 'number' && typeof b === 'number') return a < b;
        const c = compare(a, b);
        return c === null ? null : c < 0;
      };
      break;
    case '<=':
      fn = (row) => {
        const a = lf(row),
          b = rf(row);
        if (typeof a === 'number' && typeof b === 'number') return a <= b;
        const c = compare(a, b);
        return c === null ? null : c <= 0;
      };
      break;
    case '>':
      fn = (row) => {
        const a = lf(row),
          b = rf(row);
        if (typeof a === 'number' && typeof b === 'number') return a > b;
        const c = compare(a, b);
        return c === null ? null : c > 0;
      };
      break;
    default:
      fn = (row) => {
        const a = lf(row),
          b = rf(row);
        if (typeof a === 'number' && typeof b === 'number') return a >= b;
        const c = compare(a, b);
        return c === null ? null : c >= 0;
      };
  }
  return make(fn, 'BOOLEAN', [l, r]);
}

/** `a || b`: NULL when either is NULL, as Flink's CONCAT. */
export function concat2(l: Compiled, r: Compiled): Compiled {
  const lf = l.fn,
    rf = r.fn;
  return make(
    (row) => {
      const a = lf(row),
        b = rf(row);
      if (typeof a === 'string' && typeof b === 'string') return a + b;
      const x = toText(a),
        y = toText(b);
      return x === null || y === null ? null : x + y;
    },
    'STRING',
    [l, r],
  );
}

function like(negate: boolean, node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const subject = compileExpr(node.left, ctx);
  const patternNode: SqlAst = node.right;
  const escapeNode: SqlAst | undefined = patternNode.escape?.value;
  let escape: string | null = null;
  if (escapeNode) {
    const e = compileExpr(escapeNode, ctx);
    const v = e.constant ? e.fn({}) : undefined;
    if (typeof v !== 'string' || v.length !== 1) fail(ctx, 'ESCAPE expects a single character string', node, 'ESCAPE');
    escape = v;
  }
  const pattern = compileExpr({ ...patternNode, escape: undefined }, ctx);
  const sf = subject.fn,
    pf = pattern.fn;
  const test = (re: RegExp | null, s: unknown): boolean | null => {
    if (re === null) return null;
    const text = typeof s === 'string' ? s : toText(s);
    if (text === null) return null;
    const m = re.test(text);
    return negate ? !m : m;
  };
  if (pattern.constant) {
    const p = pattern.fn({});
    if (p === null) return constant(null, 'BOOLEAN');
    const re = likeToRegExp(String(p), escape);
    if (re === null)
      fail(ctx, `invalid LIKE pattern '${String(p)}': the escape character must precede %, _ or itself`, node, 'LIKE');
    return make((row) => test(re, sf(row)), 'BOOLEAN', [subject]);
  }
  // A pattern computed per row: keep the last translation, rows tend to repeat patterns.
  let lastPattern: string | null = null;
  let lastRe: RegExp | null = null;
  return make(
    (row) => {
      const p = toText(pf(row));
      if (p === null) return null;
      if (p !== lastPattern) {
        lastPattern = p;
        lastRe = likeToRegExp(p, escape);
      }
      return test(lastRe, sf(row));
    },
    'BOOLEAN',
    [subject, pattern],
  );
}

function inList(negate: boolean, node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const subject = compileExpr(node.left, ctx);
  const list: SqlAst = node.right;
  if (list.type !== 'expr_list' || !Array.isArray(list.value))
    fail(ctx, 'IN expects a list of values in parentheses', node, 'IN');
  for (const v of list.value as SqlAst[]) if (v.ast) fail(ctx, 'subqueries are not supported', node, 'SELECT');
  const elems = (list.value as SqlAst[]).map((v) => compileExpr(v, ctx));
  const sf = subject.fn;
  const allConst = elems.every((e) => e.constant);
  const consts = allConst ? elems.map((e) => e.fn({})) : [];
  const hasNull = consts.some((v) => v === null);
  const nonNull = consts.filter((v) => v !== null);
  const kind = nonNull.length > 0 && nonNull.every((v) => typeof v === typeof nonNull[0]) ? typeof nonNull[0] : null;
  const yes = !negate,
    no = negate;
  const fns = elems.map((e) => e.fn);
  const n = fns.length;
  if (allConst && (kind === 'number' || kind === 'string')) {
    const set = new Set(nonNull);
    return make(
      (row) => {
        const v = sf(row);
        if (v === null) return null;
        if (typeof v === kind) return set.has(v) ? yes : hasNull ? null : no;
        return general(v, row);
      },
      'BOOLEAN',
      [subject],
    );
  }
  function general(v: unknown, row: Record<string, unknown>): boolean | null {
    let unknown = false;
    for (let i = 0; i < n; i++) {
      const c = compare(v, fns[i](row));
      if (c === 0) return yes;
      if (c === null) unknown = true;
    }
    return unknown ? null : no;
  }
  return make(
    (row) => {
      const v = sf(row);
      return v === null ? null : general(v, row);
    },
    'BOOLEAN',
    [subject, ...elems],
  );
}

function between(negate: boolean, node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const subject = compileExpr(node.left, ctx);
  const bounds: SqlAst[] = node.right?.value ?? [];
  if (bounds.length !== 2) fail(ctx, 'BETWEEN expects two bounds: x BETWEEN low AND high', node, 'BETWEEN');
  const lo = compileExpr(bounds[0], ctx);
  const hi = compileExpr(bounds[1], ctx);
  const sf = subject.fn,
    lf = lo.fn,
    hf = hi.fn;
  return make(
    (row) => {
      const v = sf(row);
      const a = compare(v, lf(row));
      const b = compare(v, hf(row));
      // (v >= lo AND v <= hi) in three-valued logic, then negated for NOT BETWEEN.
      const ge = a === null ? null : a >= 0;
      const le = b === null ? null : b <= 0;
      const r = ge === false || le === false ? false : ge === null || le === null ? null : true;
      return r === null ? null : negate ? !r : r;
    },
    'BOOLEAN',
    [subject, lo, hi],
  );
}

function isTest(negate: boolean, node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const subject = compileExpr(node.left, ctx);
  const sf = subject.fn;
  const right: SqlAst = node.right;
  if (right.type === 'null') {
    return make((row) => (sf(row) === null) !== negate, 'BOOLEAN', [subject]);
  }
  if (right.type === 'bool') {
    requireBoolean(ctx, subject, 'IS', node);
    const target = right.value === true;
    return make(
      (row) => {
        const v = sf(row);
        const b = v === true || v === false ? v : toBool(v);
        return (b === target) !== negate;
      },
      'BOOLEAN',
      [subject],
    );
  }
  return fail(ctx, 'IS expects NULL, TRUE or FALSE', node, 'IS');
}

/** `a IS [NOT] DISTINCT FROM b`: equality where NULL equals NULL; never NULL itself. */
function distinctFrom(distinct: boolean, node: SqlAst, ctx: CompileContext, compileExpr: OperandCompiler): Compiled {
  const l = compileExpr(node.left, ctx);
  const r = compileExpr(node.right, ctx);
  const lf = l.fn,
    rf = r.fn;
  return make(
    (row) => {
      const a = lf(row),
        b = rf(row);
      const same = a === null || b === null ? a === b : compare(a, b) === 0;
      return same !== distinct;
    },
    'BOOLEAN',
    [l, r],
  );
}

/** Flink's result type of `+ - * / %` where both sides are known (LogicalTypeMerging); else UNKNOWN. */
function arithmeticType(a: SqlType, b: SqlType): SqlType {
  if (a === 'DOUBLE' || b === 'DOUBLE') return 'DOUBLE';
  if (a === 'UNKNOWN' || b === 'UNKNOWN') return 'UNKNOWN';
  if (a === 'DECIMAL' || b === 'DECIMAL') return 'DECIMAL';
  return a === 'BIGINT' && b === 'BIGINT' ? 'BIGINT' : 'UNKNOWN';
}

/** Precision and scale of a statically DECIMAL or BIGINT operand (Flink's BIGINT is DECIMAL(19, 0)). */
function decimalShape(c: Compiled): { precision: number; scale: number } {
  return c.type === 'DECIMAL'
    ? { precision: c.precision ?? 38, scale: c.scale ?? 0 }
    : { precision: intPrecision(c), scale: 0 };
}

/** Digits of an integer operand as a DECIMAL: 10 for an INT (`3`, a column declared INT), else 19. */
function intPrecision(c: Compiled): number {
  return c.type === 'BIGINT' && c.precision !== undefined ? c.precision : 19;
}
