/**
 * Flink's result types of numeric expressions, for the exported views' and sinks' column types:
 * the rules of flink-table-common's LogicalTypeMerging (findAdditionDecimalType,
 * findMultiplicationDecimalType, findDivisionDecimalType, findModuloDecimalType,
 * findRoundDecimalType, findSumAggType, findAvgAggType) and Calcite's integer arithmetic (INT / INT
 * is an INT). Weir computes the same values (engine/sql/decimal.ts, arithmetic.ts).
 */
const MAX_PRECISION = 38;
const INTEGERS: Record<string, number> = { TINYINT: 3, SMALLINT: 5, INT: 10, INTEGER: 10, BIGINT: 19 };

export interface DecimalType {
  precision: number;
  scale: number;
}

export function isInteger(type: string): boolean {
  return type in INTEGERS;
}

/** DECIMAL(p, s), or an integer type as the DECIMAL it widens to; null for anything else. */
export function decimalOf(type: string): DecimalType | null {
  if (type in INTEGERS) return { precision: INTEGERS[type], scale: 0 };
  const m = /^(?:DECIMAL|DEC|NUMERIC)(?:\((\d+)(?:,\s*(\d+))?\))?$/.exec(type);
  if (!m) return null;
  return { precision: m[1] ? Number(m[1]) : 10, scale: m[2] ? Number(m[2]) : 0 };
}

export function decimalType(d: DecimalType): string {
  return `DECIMAL(${d.precision}, ${d.scale})`;
}

/** The type of a numeric literal as Flink reads it: `3` INT, `1.005` DECIMAL(4, 3), `1e3` DOUBLE. */
export function literalType(text: string): string {
  if (/[eE]/.test(text)) return 'DOUBLE';
  const m = /^(\d*)\.(\d*)$/.exec(text);
  if (!m) return /^\d+$/.test(text) && Number(text) > 2147483647 ? 'BIGINT' : 'INT';
  const intDigits = m[1].replace(/^0+/, '').length;
  return decimalType({ precision: Math.max(1, intDigits + m[2].length), scale: m[2].length });
}

function adjust(precision: number, scale: number): DecimalType {
  if (precision <= MAX_PRECISION) return { precision, scale };
  const intDigits = precision - scale;
  return { precision: MAX_PRECISION, scale: Math.max(MAX_PRECISION - intDigits, Math.min(scale, 6)) };
}

/** `a op b` for known numeric types; null when either is not numeric. */
export function arithmeticType(op: string, a: string, b: string): string | null {
  if (a === 'DOUBLE' || a === 'FLOAT' || b === 'DOUBLE' || b === 'FLOAT') {
    return decimalOf(a) || a === 'DOUBLE' || a === 'FLOAT'
      ? decimalOf(b) || b === 'DOUBLE' || b === 'FLOAT'
        ? 'DOUBLE'
        : null
      : null;
  }
  if (isInteger(a) && isInteger(b))
    return INTEGERS[a] >= INTEGERS[b] ? (a === 'INTEGER' ? 'INT' : a) : b === 'INTEGER' ? 'INT' : b;
  const x = decimalOf(a),
    y = decimalOf(b);
  if (!x || !y) return null;
  const { precision: p1, scale: s1 } = x,
    { precision: p2, scale: s2 } = y;
  switch (op) {
    case '+':
    case '-': {
      const s = Math.max(s1, s2);
      return decimalType(adjust(Math.max(p1 - s1, p2 - s2) + s + 1, s));
    }
    case '*':
      return decimalType(adjust(p1 + p2 + 1, s1 + s2));
    case '/': {
      const s = Math.max(6, s1 + p2 + 1);
      return decimalType(adjust(p1 - s1 + s2 + s, s));
    }
    default: {
      const s = Math.max(s1, s2);
      return decimalType(adjust(Math.min(p1 - s1, p2 - s2) + s, s));
    }
  }
}

/** SUM: DECIMAL(p, s) gives DECIMAL(38, s); every other type its own. */
export function sumType(arg: string): string {
  const d = isInteger(arg) ? null : decimalOf(arg);
  return d ? decimalType({ precision: MAX_PRECISION, scale: d.scale }) : arg;
}

/** AVG: DECIMAL(p, s) gives DECIMAL(38, max(6, s)); an integer type its own (truncating). */
export function avgType(arg: string): string {
  const d = isInteger(arg) ? null : decimalOf(arg);
  return d ? decimalType(adjust(MAX_PRECISION - d.scale + Math.max(6, d.scale + 21), Math.max(6, d.scale + 21))) : arg;
}

/** ROUND(x, r) of a DECIMAL(p, s) (findRoundDecimalType); other types keep theirs. */
export function roundType(arg: string, r: number): string {
  const d = isInteger(arg) ? null : decimalOf(arg);
  if (!d) return arg;
  if (r >= d.scale) return arg;
  if (r < 0) return decimalType({ precision: Math.min(MAX_PRECISION, 1 + d.precision - d.scale), scale: 0 });
  return decimalType({ precision: 1 + d.precision - d.scale + r, scale: r });
}
