/**
 * Exact DECIMAL(p, s) values, as Flink SQL computes them.
 *
 * In SQL a literal with a point (`1.005`) is an exact DECIMAL, not a double, so
 * `ROUND(amount * 1.005, 2)` is computed without binary rounding. A Decimal lives only inside an
 * expression: where a value leaves it (a projected column, a filter result, an aggregate input)
 * it becomes a JS number (`toJsValue`), because rows are JSON.
 *
 * Result types follow Flink's `LogicalTypeMerging` (flink-table-common,
 * org/apache/flink/table/types/logical/utils/LogicalTypeMerging.java):
 *   e1 + e2, e1 - e2: scale max(s1, s2), precision max(s1, s2) + max(p1-s1, p2-s2) + 1
 *   e1 * e2:          scale s1 + s2,       precision p1 + p2 + 1
 *   e1 / e2:          scale max(6, s1 + p2 + 1), precision p1 - s1 + s2 + scale
 *   e1 % e2:          scale max(s1, s2)
 * and beyond precision 38 the scale is reduced (but kept >= min(scale, 6)), as `adjustPrecisionScale`.
 * Rounding is HALF_UP (Flink's DecimalData.fromBigDecimal uses RoundingMode.HALF_UP).
 * An integer taking part in DECIMAL arithmetic is DECIMAL(19, 0), Flink's BIGINT.
 */
export const MAX_PRECISION = 38;
const MIN_ADJUSTED_SCALE = 6;

export class Decimal {
  constructor(
    readonly unscaled: bigint,
    readonly scale: number,
    readonly precision: number,
  ) {}

  toString(): string {
    const neg = this.unscaled < 0n;
    let digits = (neg ? -this.unscaled : this.unscaled).toString();
    if (this.scale > 0) {
      digits = digits.padStart(this.scale + 1, '0');
      digits = `${digits.slice(0, digits.length - this.scale)}.${digits.slice(digits.length - this.scale)}`;
    }
    return neg ? `-${digits}` : digits;
  }

  toNumber(): number {
    const n = Number(this.toString());
    return n === 0 ? 0 : n;
  }

  /**
   * Rows are JSON and every operator turns a DECIMAL result back into a number (toJsValue); should
   * one still reach a sink, it is written as that number rather than failing the job with "Do not
   * know how to serialize a BigInt" from its unscaled digits.
   */
  toJSON(): number {
    return this.toNumber();
  }
}

const TEN = 10n;
/** 10^0 .. 10^80 as bigints: every scale a DECIMAL(38) operation shifts by; computing them per row showed in profiles. */
const POW10: bigint[] = Array.from({ length: 81 }, (_, i) => TEN ** BigInt(i));
/** 1e0 .. 1e22 as literals: exact doubles (an exponentiation need not be exact). */
const POW10_DOUBLE = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];
function pow10(n: number): bigint {
  return n < POW10.length ? POW10[n] : TEN ** BigInt(n);
}

/** `1.005` -> DECIMAL(4, 3). Returns null for text that is not a plain decimal literal. */
export function decimalFromLiteral(text: string): Decimal | null {
  const m = /^([-+]?)(\d*)\.(\d*)$/.exec(text.trim());
  if (!m || (m[2] === '' && m[3] === '')) return null;
  const intPart = m[2].replace(/^0+(?=\d)/, '');
  const frac = m[3];
  const unscaled = BigInt(`${m[1] === '-' ? '-' : ''}${intPart || '0'}${frac}`);
  const intDigits = intPart === '' || /^0+$/.test(intPart) ? 0 : intPart.length;
  return new Decimal(unscaled, frac.length, Math.max(1, intDigits + frac.length));
}

/** An integer as DECIMAL(19, 0) (Flink's BIGINT), or DECIMAL(10, 0) for an INT. */
export function decimalFromInteger(n: number | bigint, precision = 19): Decimal {
  return new Decimal(typeof n === 'bigint' ? n : BigInt(n), 0, precision);
}

/**
 * A double as DECIMAL(p, s), through its shortest decimal form (Flink casts DOUBLE to DECIMAL with
 * BigDecimal.valueOf, which is Double.toString). Null when it does not fit p digits.
 */
export function decimalFromDouble(x: number, precision: number, scale: number): Decimal | null {
  // Fast path, exact: when u = round(x * 10^s) is below 2^51 and u / 10^s gives back x, the
  // double's rounding interval is narrower than 10^-s, so u * 10^-s is the one decimal of at most
  // s fraction digits inside it: its shortest form, already at scale s (no rounding to do).
  // A per-row DECIMAL column read (`amount > 10`, `SUM(amount)`) takes this path; the text path
  // below cost ~40% of a filter + window job's time in a profile (bench/file-source.ts).
  if (scale >= 0 && scale <= 22) {
    const f = POW10_DOUBLE[scale];
    const u = Math.round(x * f);
    if (Math.abs(u) < 2 ** 51 && u / f === x) {
      if (precision < 16 && Math.abs(u) >= POW10_DOUBLE[precision]) return null;
      return new Decimal(BigInt(u), scale, precision);
    }
  }
  return decimalFromShortestText(x, precision, scale);
}

/** decimalFromDouble's general path, through the shortest decimal text (exported for its property test). */
export function decimalFromShortestText(x: number, precision: number, scale: number): Decimal | null {
  if (!Number.isFinite(x)) return null;
  const text =
    Math.abs(x) < 1e21 && !String(x).includes('e') ? String(x) : x.toFixed(Math.min(100, Math.max(0, scale)));
  const d = decimalFromLiteral(text.includes('.') ? text : `${text}.`);
  return d === null ? null : rescale(d, scale, precision);
}

/** HALF_UP rounding of `unscaled / 10^drop`. */
function shiftRoundHalfUp(unscaled: bigint, drop: number): bigint {
  if (drop <= 0) return unscaled * pow10(-drop);
  const div = pow10(drop);
  const q = unscaled / div;
  const r = unscaled % div;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= div) return unscaled < 0n ? q - 1n : q + 1n;
  return q;
}

function digitCount(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

/** The value at `scale` digits (HALF_UP), as DECIMAL(precision, scale); null on overflow (as Flink). */
export function rescale(d: Decimal, scale: number, precision: number): Decimal | null {
  const u = shiftRoundHalfUp(d.unscaled, d.scale - scale);
  if (u !== 0n && digitCount(u) > precision) return null;
  return new Decimal(u, scale, precision);
}

function adjust(precision: number, scale: number): [number, number] {
  if (precision <= MAX_PRECISION) return [precision, scale];
  const intDigits = precision - scale;
  const minScale = Math.min(scale, MIN_ADJUSTED_SCALE);
  return [MAX_PRECISION, Math.max(MAX_PRECISION - intDigits, minScale)];
}

/** Builds the result at the type's scale; null when it overflows the type, as Flink gives NULL. */
function result(
  unscaled: bigint,
  scale: number,
  precision: number,
  scaleWanted: number,
  precisionWanted: number,
): Decimal | null {
  const [p, s] = adjust(precisionWanted, scaleWanted);
  return rescale(new Decimal(unscaled, scale, precision), s, p);
}

export function decimalAdd(a: Decimal, b: Decimal, negateB = false): Decimal | null {
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(s - a.scale);
  let y = b.unscaled * pow10(s - b.scale);
  if (negateB) y = -y;
  const p = Math.max(a.precision - a.scale, b.precision - b.scale) + s + 1;
  return result(x + y, s, p, s, p);
}

export function decimalMultiply(a: Decimal, b: Decimal): Decimal | null {
  const s = a.scale + b.scale;
  const p = a.precision + b.precision + 1;
  return result(a.unscaled * b.unscaled, s, p, s, p);
}

/** a / b; the caller checks b for zero (Flink fails the job on a DECIMAL division by zero). */
export function decimalDivide(a: Decimal, b: Decimal): Decimal | null {
  const want = Math.max(6, a.scale + b.precision + 1);
  const p = a.precision - a.scale + b.scale + want;
  const [, s] = adjust(p, want);
  // round_half_up(a.u * 10^(b.s + s) / (b.u * 10^a.s)) is the unscaled result at scale s.
  const num = a.unscaled * pow10(b.scale + s);
  const den = b.unscaled * pow10(a.scale);
  let q = num / den;
  const r = num % den;
  if ((r < 0n ? -r : r) * 2n >= (den < 0n ? -den : den)) q += num < 0n !== den < 0n ? -1n : 1n;
  const [pp] = adjust(p, want);
  if (q !== 0n && digitCount(q) > pp) return null;
  return new Decimal(q, s, pp);
}

/** a % b with the sign of a (Java's BigDecimal.remainder); the caller checks b for zero. */
export function decimalMod(a: Decimal, b: Decimal): Decimal | null {
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(s - a.scale);
  const y = b.unscaled * pow10(s - b.scale);
  const p = Math.min(a.precision - a.scale, b.precision - b.scale) + s;
  return result(x % y, s, Math.max(p, digitCount(x % y)), s, Math.max(p, 1));
}

export function decimalNegate(a: Decimal): Decimal {
  return new Decimal(-a.unscaled, a.scale, a.precision);
}
export function decimalAbs(a: Decimal): Decimal {
  return a.unscaled < 0n ? decimalNegate(a) : a;
}
export function decimalIsZero(a: Decimal): boolean {
  return a.unscaled === 0n;
}

export function decimalCompare(a: Decimal, b: Decimal): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(s - a.scale);
  const y = b.unscaled * pow10(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** ROUND(d, r): HALF_UP to r digits; the type follows Flink's findRoundDecimalType. */
export function decimalRound(d: Decimal, r: number): Decimal | null {
  if (r >= d.scale) return d;
  if (r < 0) {
    const u = shiftRoundHalfUp(d.unscaled, d.scale - r) * pow10(-r);
    return new Decimal(u, 0, Math.min(MAX_PRECISION, 1 + d.precision - d.scale));
  }
  return rescale(d, r, 1 + d.precision - d.scale + r);
}

/** FLOOR / CEIL of a decimal: DECIMAL(p - s + 1, 0)... kept simple: an integer-valued decimal. */
export function decimalFloorCeil(d: Decimal, ceil: boolean): Decimal {
  if (d.scale === 0) return d;
  const div = pow10(d.scale);
  let q = d.unscaled / div;
  const r = d.unscaled % div;
  if (r !== 0n && (ceil ? d.unscaled > 0n : d.unscaled < 0n)) q += ceil ? 1n : -1n;
  return new Decimal(q, 0, Math.max(1, d.precision - d.scale + 1));
}

/** Where a value leaves an expression: Decimals become JS numbers (rows are JSON). */
export function toJsValue(v: unknown): unknown {
  return v instanceof Decimal ? v.toNumber() : v;
}

/** Static DECIMAL type of `a op b` (the rules above); a BIGINT operand is DECIMAL(19, 0). */
export function decimalResultType(
  op: string,
  a: { precision: number; scale: number },
  b: { precision: number; scale: number },
): { precision: number; scale: number } {
  const { precision: p1, scale: s1 } = a,
    { precision: p2, scale: s2 } = b;
  let p: number, s: number;
  switch (op) {
    case '+':
    case '-':
      s = Math.max(s1, s2);
      p = Math.max(p1 - s1, p2 - s2) + s + 1;
      break;
    case '*':
      s = s1 + s2;
      p = p1 + p2 + 1;
      break;
    case '/':
      s = Math.max(6, s1 + p2 + 1);
      p = p1 - s1 + s2 + s;
      break;
    default:
      s = Math.max(s1, s2);
      p = Math.min(p1 - s1, p2 - s2) + s;
  }
  const [pp, ss] = adjust(p, s);
  return { precision: pp, scale: ss };
}

/** Static type of ROUND(DECIMAL(p, s), r): Flink's findRoundDecimalType. */
export function decimalRoundType(p: number, s: number, r: number): { precision: number; scale: number } {
  if (r >= s) return { precision: p, scale: s };
  if (r < 0) return { precision: Math.min(MAX_PRECISION, 1 + p - s), scale: 0 };
  return { precision: 1 + p - s + r, scale: r };
}
