import {
  Decimal,
  decimalAdd,
  decimalDivide,
  decimalFromInteger,
  decimalIsZero,
  decimalMod,
  decimalMultiply,
} from './decimal.ts';
import { SqlRuntimeError } from './errors.ts';
import { toNumber } from './values.ts';

/**
 * `+ - * / %` on runtime values, with Flink's typing rules applied to the value at hand (rows are
 * schemaless, so a JSON number's type is read from the number: a whole number is a BIGINT, one
 * with a fraction a DOUBLE; a DECIMAL literal or CAST gives a Decimal):
 * - DOUBLE with anything is DOUBLE (IEEE arithmetic); `asDouble` forces it when the expression is
 *   statically DOUBLE (CAST(x AS DOUBLE) of 4 is the JS number 4 but still a DOUBLE);
 * - DECIMAL with DECIMAL or BIGINT is an exact DECIMAL (decimal.ts);
 * - BIGINT with BIGINT is a BIGINT: `/` truncates toward zero, `%` takes the dividend's sign (Java).
 * Division or modulo by zero fails the job for BIGINT and DECIMAL, as in Flink (ArithmeticException);
 * for DOUBLE it is NULL in Weir (Flink gives Infinity or NaN, which are not JSON values).
 */
export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';

type Num = number | Decimal;

function asNum(v: unknown): Num | null {
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (v instanceof Decimal) return v;
  return toNumber(v);
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? (x === 0 ? 0 : x) : null;
}

function divisionByZero(op: ArithmeticOp, a: Num, kind: string): never {
  throw new SqlRuntimeError(
    `${kind} ${op === '/' ? 'division' : 'modulo'} by zero: ${String(a)} ${op} 0 (Flink fails the job too)`,
  );
}

/** `intPrecision*`: 10 where an operand is statically an INT (a literal such as `3`), else 19 (BIGINT). */
export function arithmetic(
  op: ArithmeticOp,
  av: unknown,
  bv: unknown,
  asDouble: boolean,
  intPrecisionA = 19,
  intPrecisionB = 19,
): unknown {
  const a = asNum(av),
    b = asNum(bv);
  if (a === null || b === null) return null;
  const aDec = a instanceof Decimal,
    bDec = b instanceof Decimal;
  if (!asDouble && (aDec || bDec)) {
    // DECIMAL with a DOUBLE is a DOUBLE (LogicalTypeMerging: "in case of DECIMAL we enforce DOUBLE").
    const aFrac = !aDec && !Number.isInteger(a),
      bFrac = !bDec && !Number.isInteger(b);
    if (!aFrac && !bFrac)
      return decimalOp(
        op,
        aDec ? a : decimalFromInteger(a, intPrecisionA),
        bDec ? b : decimalFromInteger(b, intPrecisionB),
      );
  }
  const x = aDec ? a.toNumber() : a;
  const y = bDec ? b.toNumber() : b;
  const ints = !asDouble && !aDec && !bDec && Number.isInteger(x) && Number.isInteger(y);
  switch (op) {
    case '+':
      return finiteOrNull(x + y);
    case '-':
      return finiteOrNull(x - y);
    case '*':
      return finiteOrNull(x * y);
    case '/':
      if (ints) {
        if (y === 0) divisionByZero(op, x, 'BIGINT');
        return Math.trunc(x / y) || 0;
      }
      return y === 0 ? null : finiteOrNull(x / y);
    default:
      if (ints && y === 0) divisionByZero(op, x, 'BIGINT');
      return y === 0 ? null : finiteOrNull(x % y);
  }
}

function decimalOp(op: ArithmeticOp, a: Decimal, b: Decimal): Decimal | null {
  switch (op) {
    case '+':
      return decimalAdd(a, b);
    case '-':
      return decimalAdd(a, b, true);
    case '*':
      return decimalMultiply(a, b);
    case '/':
      if (decimalIsZero(b)) divisionByZero(op, a, 'DECIMAL');
      return decimalDivide(a, b);
    default:
      if (decimalIsZero(b)) divisionByZero(op, a, 'DECIMAL');
      return decimalMod(a, b);
  }
}
