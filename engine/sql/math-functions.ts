/**
 * Flink's numeric functions beyond ABS, FLOOR, CEIL, ROUND, MOD, POWER and SQRT (functions.ts):
 * logarithms, trigonometry, SIGN, TRUNCATE, BIN, HEX, PI, E, and GREATEST / LEAST. NULL in, NULL
 * out. The DOUBLE ones compute with Math.* as Java's Math does; a NaN or infinite result is NULL,
 * as everywhere in Weir (JSON has no NaN). LOG(base, x) fails the job for a base <= 1 or x <= 0,
 * as Flink's SqlFunctionUtils.log does.
 */
import type { FunctionSpec, SqlType } from './types.ts';
import { Decimal, decimalRoundType, rescale } from './decimal.ts';
import { SqlRuntimeError } from './errors.ts';
import { strict, text } from './function-args.ts';
import { compare, toNumber } from './values.ts';

const num = (v: unknown): number => (v instanceof Decimal ? v.toNumber() : (toNumber(v) ?? NaN));
const finite = (x: number): number | null => (Number.isFinite(x) ? (x === 0 ? 0 : x) : null);

function double(name: string, arity: 1 | 2, op: (...xs: number[]) => number): FunctionSpec {
  const args = arity === 1 ? 'x NUMERIC' : 'y NUMERIC, x NUMERIC';
  return strict(
    {
      min: arity,
      max: arity,
      params: arity === 1 ? ['NUMERIC'] : ['NUMERIC', 'NUMERIC'],
      signature: `${name}(${args}) → DOUBLE`,
      type: 'DOUBLE',
    },
    (vs) => finite(op(...vs.map(num))),
  );
}

function constantDouble(name: string, value: number): FunctionSpec {
  return {
    min: 0,
    max: 0,
    params: [],
    signature: `${name}() → DOUBLE`,
    build: () => ({ fn: () => value, type: 'DOUBLE' }),
  };
}

function log(base: number, x: number): number {
  if (base <= 1) throw new SqlRuntimeError(`LOG: the base must be > 1, got ${base}`);
  if (x <= 0) throw new SqlRuntimeError(`LOG: the value must be > 0, got ${x}`);
  return Math.log(x) / Math.log(base);
}

/** Java's Long.toString(x, radix) of a 64-bit two's complement value (negative numbers wrap). */
function unsigned64(v: unknown, radix: 2 | 16): string | null {
  const x = v instanceof Decimal ? v.toNumber() : toNumber(v);
  if (x === null) return null;
  const big = BigInt.asUintN(64, BigInt(Math.trunc(x)));
  return big.toString(radix).toUpperCase();
}

const numericType = (t: SqlType): SqlType => (t === 'BIGINT' || t === 'DOUBLE' || t === 'DECIMAL' ? t : 'UNKNOWN');

/** Truncates toward zero at `digits` decimals; BigDecimal-exact for DECIMALs (SqlFunctionUtils.struncate). */
function truncate(v: unknown, digits: number): unknown {
  if (v instanceof Decimal) {
    const shift = v.scale - digits;
    if (shift <= 0) return v;
    const cut = v.unscaled / 10n ** BigInt(shift); // bigint division truncates toward zero
    // The result has `digits` decimals (ROUND's type), none when digits < 0.
    return digits >= 0
      ? new Decimal(cut, digits, v.precision)
      : new Decimal(cut * 10n ** BigInt(-digits), 0, v.precision);
  }
  const x = num(v);
  if (!Number.isFinite(x)) return null;
  // Through the shortest decimal text, as BigDecimal.valueOf(double) does.
  const [mant, exp = '0'] = x.toExponential().split('e');
  const [int, frac = ''] = mant.replace('-', '').split('.');
  const point = 1 + Number(exp); // digits before the point in `int + frac`
  const all = int + frac;
  const keep = point + digits;
  if (keep <= 0) return 0;
  const kept = all.slice(0, keep).padEnd(Math.max(point, 0), '0');
  const whole = kept.slice(0, Math.max(point, 0)) || '0';
  const fracPart = kept.slice(Math.max(point, 0));
  const out = Number(`${x < 0 ? '-' : ''}${whole}${fracPart ? '.' + fracPart : ''}`);
  return out === 0 ? 0 : out;
}

function extreme(name: 'GREATEST' | 'LEAST'): FunctionSpec {
  const sign = name === 'GREATEST' ? 1 : -1;
  return {
    min: 1,
    max: Infinity,
    params: ['ANY'],
    signature: `${name}(value, value, ...) → the arguments' common type`,
    build: (args) => {
      const fns = args.map((a) => a.fn);
      const known = args.map((a) => a.type).filter((t) => t !== 'UNKNOWN');
      const type: SqlType =
        known.length === 0
          ? 'UNKNOWN'
          : known.includes('DOUBLE')
            ? 'DOUBLE'
            : known.includes('DECIMAL')
              ? 'DECIMAL'
              : known[0];
      return {
        fn: (row) => {
          let best: unknown = null;
          for (const f of fns) {
            const v = f(row);
            if (v === null || v === undefined) return null; // Flink: NULL when any argument is NULL
            if (best === null || (compare(v, best) ?? 0) * sign > 0) best = v;
          }
          return best;
        },
        type,
      };
    },
  };
}

export const MATH_FUNCTIONS: Record<string, FunctionSpec> = {
  LN: double('LN', 1, Math.log),
  LOG10: double('LOG10', 1, Math.log10),
  LOG2: double('LOG2', 1, Math.log2),
  LOG: {
    ...double('LOG', 2, log),
    min: 1,
    signature: 'LOG([base NUMERIC,] x NUMERIC) → DOUBLE',
    build: (args) => {
      const fns = args.map((a) => a.fn);
      return {
        fn: (row) => {
          const vs = fns.map((f) => f(row));
          if (vs.some((v) => v === null || v === undefined)) return null;
          return vs.length === 1 ? finite(Math.log(num(vs[0]))) : finite(log(num(vs[0]), num(vs[1])));
        },
        type: 'DOUBLE',
      };
    },
  },
  EXP: double('EXP', 1, Math.exp),
  SIN: double('SIN', 1, Math.sin),
  COS: double('COS', 1, Math.cos),
  TAN: double('TAN', 1, Math.tan),
  COT: double('COT', 1, (x) => 1 / Math.tan(x)),
  ASIN: double('ASIN', 1, Math.asin),
  ACOS: double('ACOS', 1, Math.acos),
  ATAN: double('ATAN', 1, Math.atan),
  ATAN2: double('ATAN2', 2, Math.atan2),
  SINH: double('SINH', 1, Math.sinh),
  COSH: double('COSH', 1, Math.cosh),
  TANH: double('TANH', 1, Math.tanh),
  DEGREES: double('DEGREES', 1, (x) => (x * 180) / Math.PI),
  RADIANS: double('RADIANS', 1, (x) => (x / 180) * Math.PI),
  PI: constantDouble('PI', Math.PI),
  E: constantDouble('E', Math.E),
  SIGN: {
    min: 1,
    max: 1,
    params: ['NUMERIC'],
    signature: 'SIGN(x NUMERIC) → the type of x',
    build: ([a]) => {
      const f = a.fn;
      return {
        fn: (row) => {
          const v = f(row);
          if (v === null || v === undefined) return null;
          if (v instanceof Decimal) {
            const sgn = v.unscaled > 0n ? 1n : v.unscaled < 0n ? -1n : 0n;
            return rescale(new Decimal(sgn, 0, 1), v.scale, v.precision) ?? Number(sgn);
          }
          const x = num(v);
          return Number.isNaN(x) ? null : x > 0 ? 1 : x < 0 ? -1 : 0;
        },
        type: numericType(a.type),
        ...(a.type === 'DECIMAL' ? { precision: a.precision, scale: a.scale } : {}),
      };
    },
  },
  TRUNCATE: {
    min: 1,
    max: 2,
    params: ['NUMERIC', 'INTEGER'],
    signature: 'TRUNCATE(x NUMERIC[, digits INT]) → the type of x',
    build: ([a, d]) => {
      const af = a.fn,
        df = d ? d.fn : () => 0;
      const literal = d === undefined ? 0 : d.constant ? d.fn({}) : undefined;
      return {
        fn: (row) => {
          const v = af(row);
          const digits = df(row);
          if (v === null || v === undefined || digits === null) return null;
          return truncate(v, Math.trunc(num(digits)));
        },
        type: numericType(a.type),
        // Flink types TRUNCATE as ROUND: DECIMAL(1 + p - s + r, r) for a literal r.
        ...(a.type === 'DECIMAL' && a.scale !== undefined && typeof literal === 'number'
          ? decimalRoundType(a.precision ?? 38, a.scale, Math.trunc(literal))
          : {}),
      };
    },
  },
  BIN: strict({ min: 1, max: 1, params: ['INTEGER'], signature: 'BIN(x BIGINT) → STRING', type: 'STRING' }, ([v]) =>
    unsigned64(v, 2),
  ),
  HEX: strict(
    { min: 1, max: 1, params: ['ANY'], signature: 'HEX(x BIGINT | STRING) → STRING', type: 'STRING' },
    // A number: Long.toHexString; a string: its UTF-8 bytes in hex (upper case, as Flink).
    ([v]) =>
      typeof v === 'string'
        ? [...new TextEncoder().encode(v)]
            .map((b) => b.toString(16).padStart(2, '0'))
            .join('')
            .toUpperCase()
        : typeof v === 'number' || v instanceof Decimal
          ? unsigned64(v, 16)
          : text(v),
  ),
  GREATEST: extreme('GREATEST'),
  LEAST: extreme('LEAST'),
};
