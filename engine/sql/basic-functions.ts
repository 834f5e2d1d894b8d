import type { Compiled, FunctionSpec, SqlType } from './types.ts';
import { roundHalfUp, substringSql, toNumber, toText } from './values.ts';
import { Decimal, decimalAbs, decimalFloorCeil, decimalRound, decimalRoundType } from './decimal.ts';
import { arithmetic } from './arithmetic.ts';
import { trimChars } from './string-functions.ts';

/**
 * The basic scalar functions: conditionals (COALESCE, NULLIF, IF, IFNULL), the common string ones
 * and the common numeric ones. Every one returns NULL when an argument it needs is NULL (COALESCE
 * and IFNULL aside); CONCAT is NULL when any argument is NULL, as in Flink. functions.ts gathers
 * them with the other catalogs.
 */

const num = (v: unknown): number | null => (typeof v === 'number' ? v : toNumber(v));

function numericType(t: SqlType): SqlType {
  return t === 'BIGINT' || t === 'DOUBLE' || t === 'DECIMAL' ? t : 'UNKNOWN';
}

/** A numeric function; `exact` computes it on a DECIMAL argument (keeping it exact), else doubles. */
function unaryNumeric(
  name: string,
  op: (x: number) => number,
  keepsType: boolean,
  exact?: (d: Decimal) => Decimal,
  dropsScale = false,
): FunctionSpec {
  return {
    min: 1,
    max: 1,
    params: ['NUMERIC'],
    signature: `${name}(x NUMERIC) → ${keepsType ? 'the type of x' : 'DOUBLE'}`,
    build: ([a]) => {
      const f = a.fn;
      return {
        fn: (row) => {
          const v = f(row);
          if (exact && v instanceof Decimal) return exact(v);
          const x = num(v);
          return x === null ? null : finite(op(x));
        },
        type: keepsType ? numericType(a.type) : 'DOUBLE',
        ...(keepsType ? keptShape(a, exact !== undefined && dropsScale) : {}),
      };
    },
  };
}

/**
 * The precision and scale a type-keeping function leaves (Flink: ABS(DECIMAL(5, 2)) is DECIMAL(5, 2),
 * FLOOR and CEIL of it DECIMAL(5, 0), Calcite's ARG0_OR_EXACT_NO_SCALE; an INT stays an INT).
 */
function keptShape(a: Compiled, dropsScale: boolean): { precision?: number; scale?: number } {
  if (a.type === 'BIGINT' && a.precision !== undefined) return { precision: a.precision };
  if (a.type !== 'DECIMAL' || a.precision === undefined) return {};
  return { precision: a.precision, scale: dropsScale ? 0 : (a.scale ?? 0) };
}

function unaryString(name: string, op: (s: string) => unknown, type: SqlType): FunctionSpec {
  return {
    min: 1,
    max: 1,
    params: ['STRING'],
    signature: `${name}(s STRING) → ${type === 'BIGINT' ? 'INT' : type}`,
    build: ([a]) => {
      const f = a.fn;
      return {
        fn: (row) => {
          const v = f(row);
          if (typeof v === 'string') return op(v);
          const s = toText(v);
          return s === null ? null : op(s);
        },
        type,
      };
    },
  };
}

const charLength = unaryString('CHAR_LENGTH', (s) => s.length, 'BIGINT');

const substring: FunctionSpec = {
  min: 2,
  max: 3,
  params: ['STRING', 'INTEGER', 'INTEGER'],
  signature: 'SUBSTRING(s STRING FROM pos INT [FOR len INT]) → STRING',
  build: ([s, p, n]) => {
    const sf = s.fn,
      pf = p.fn,
      nf = n ? n.fn : null;
    return {
      fn: (row) => {
        const str = toText(sf(row));
        const pos = num(pf(row));
        if (str === null || pos === null) return null;
        if (nf === null) return substringSql(str, Math.trunc(pos), null);
        const len = num(nf(row));
        return len === null ? null : substringSql(str, Math.trunc(pos), Math.trunc(len));
      },
      type: 'STRING',
    };
  },
};

/** LTRIM(s[, chars]) / RTRIM(s[, chars]): spaces by default (the optional chars since Flink 2.0). */
function trimOneSide(name: string, leading: boolean): FunctionSpec {
  return {
    min: 1,
    max: 2,
    params: ['STRING', 'STRING'],
    signature: `${name}(s STRING[, chars STRING]) → STRING`,
    build: ([a, c]) => {
      const af = a.fn,
        cf = c ? c.fn : () => ' ';
      return {
        fn: (row) => {
          const s = toText(af(row)),
            chars = toText(cf(row));
          return s === null || chars === null ? null : trimChars(s, chars, leading, !leading);
        },
        type: 'STRING',
      };
    },
  };
}

const noZero = (x: number): number => (x === 0 ? 0 : x); // no -0 in results
/** NaN and infinities are not JSON values: they become NULL. */
const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

export const BASIC_FUNCTIONS: Record<string, FunctionSpec> = {
  COALESCE: {
    min: 1,
    max: Infinity,
    params: ['ANY'],
    signature: 'COALESCE(value, ...) → the first non-NULL value',
    build: (args) => {
      const fns = args.map((a) => a.fn);
      const n = fns.length;
      return {
        fn: (row) => {
          for (let i = 0; i < n; i++) {
            const v = fns[i](row);
            if (v !== null) return v;
          }
          return null;
        },
        type: args.find((a) => a.type !== 'UNKNOWN')?.type ?? 'UNKNOWN',
      };
    },
  },
  NULLIF: {
    min: 2,
    max: 2,
    params: ['ANY', 'ANY'],
    signature: 'NULLIF(a, b) → NULL when a = b, else a',
    build: ([a, b]) => {
      const af = a.fn,
        bf = b.fn;
      return {
        fn: (row) => {
          const x = af(row);
          const y = bf(row);
          return x !== null && y !== null && (x === y || (num(x) !== null && num(x) === num(y))) ? null : x;
        },
        type: a.type,
      };
    },
  },
  UPPER: unaryString('UPPER', (s) => s.toUpperCase(), 'STRING'),
  LOWER: unaryString('LOWER', (s) => s.toLowerCase(), 'STRING'),
  CHAR_LENGTH: charLength,
  CHARACTER_LENGTH: { ...charLength, signature: 'CHARACTER_LENGTH(s STRING) → INT' },
  SUBSTRING: substring,
  SUBSTR: { ...substring, signature: 'SUBSTR(s STRING, pos INT[, len INT]) → STRING' },
  CONCAT: {
    min: 1,
    max: Infinity,
    params: ['STRING'],
    signature: 'CONCAT(s STRING, ...) → STRING',
    build: (args) => {
      const fns = args.map((a) => a.fn);
      const n = fns.length;
      return {
        fn: (row) => {
          let out = '';
          for (let i = 0; i < n; i++) {
            const v = fns[i](row);
            const s = typeof v === 'string' ? v : toText(v);
            if (s === null) return null;
            out += s;
          }
          return out;
        },
        type: 'STRING',
      };
    },
  },
  ABS: unaryNumeric('ABS', (x) => noZero(Math.abs(x)), true, decimalAbs),
  FLOOR: unaryNumeric(
    'FLOOR',
    (x) => noZero(Math.floor(x)),
    true,
    (d) => decimalFloorCeil(d, false),
    true,
  ),
  CEIL: unaryNumeric(
    'CEIL',
    (x) => noZero(Math.ceil(x)),
    true,
    (d) => decimalFloorCeil(d, true),
    true,
  ),
  CEILING: unaryNumeric(
    'CEILING',
    (x) => noZero(Math.ceil(x)),
    true,
    (d) => decimalFloorCeil(d, true),
    true,
  ),
  ROUND: {
    min: 1,
    max: 2,
    params: ['NUMERIC', 'INTEGER'],
    signature: 'ROUND(x NUMERIC[, digits INT]) → the type of x',
    build: ([a, d]) => {
      const af = a.fn,
        df = d ? d.fn : null;
      return {
        fn: (row) => {
          const v = af(row);
          const x = v instanceof Decimal ? v : num(v);
          if (x === null) return null;
          const digits = df === null ? 0 : num(df(row));
          if (digits === null) return null;
          // A DECIMAL rounds exactly (Flink's DecimalData round, HALF_UP); a DOUBLE through its
          // shortest decimal form (SqlFunctionUtils.sround: BigDecimal.valueOf(d).setScale).
          return x instanceof Decimal ? decimalRound(x, Math.trunc(digits)) : roundHalfUp(x, digits);
        },
        type: numericType(a.type),
        // ROUND(DECIMAL(p, s), r) with a literal r: DECIMAL(1 + p - s + r, r) (findRoundDecimalType).
        ...(a.type === 'DECIMAL' && a.scale !== undefined && (!d || (d.constant && typeof d.fn({}) === 'number'))
          ? decimalRoundType(a.precision ?? 38, a.scale, d ? Math.trunc(d.fn({}) as number) : 0)
          : keptShape(a, false)),
      };
    },
  },
  TRIM: {
    min: 1,
    max: 3,
    params: ['STRING', 'STRING', 'STRING'],
    signature: "TRIM([BOTH | LEADING | TRAILING] [chars STRING] FROM s STRING) → STRING (chars: ' ')",
    // TRIM(s), or TRIM(mode, chars, s) as the parser writes the keyword form (special-forms.ts).
    check: (args) => (args.length === 2 ? 'write TRIM(s) or TRIM(BOTH | LEADING | TRAILING chars FROM s)' : null),
    build: (args) => {
      if (args.length === 1) return unaryString('TRIM', (s) => trimChars(s, ' ', true, true), 'STRING').build(args);
      const [mode, chars, str] = args.map((a) => a.fn);
      return {
        fn: (row) => {
          const m = mode(row),
            c = toText(chars(row)),
            s = toText(str(row));
          if (c === null || s === null) return null;
          return trimChars(s, c, m !== 'TRAILING', m !== 'LEADING');
        },
        type: 'STRING',
      };
    },
  },
  LTRIM: trimOneSide('LTRIM', true),
  RTRIM: trimOneSide('RTRIM', false),
  REPLACE: {
    min: 3,
    max: 3,
    params: ['STRING', 'STRING', 'STRING'],
    signature: 'REPLACE(s STRING, from STRING, to STRING) → STRING',
    build: ([a, b, c]) => {
      const af = a.fn,
        bf = b.fn,
        cf = c.fn;
      return {
        fn: (row) => {
          const s = toText(af(row)),
            from = toText(bf(row)),
            to = toText(cf(row));
          if (s === null || from === null || to === null) return null;
          return from === '' ? s : s.split(from).join(to);
        },
        type: 'STRING',
      };
    },
  },
  POWER: {
    min: 2,
    max: 2,
    params: ['NUMERIC', 'NUMERIC'],
    signature: 'POWER(x NUMERIC, y NUMERIC) → DOUBLE',
    build: ([a, b]) => {
      const af = a.fn,
        bf = b.fn;
      return {
        fn: (row) => {
          const x = num(af(row)),
            y = num(bf(row));
          return x === null || y === null ? null : finite(x ** y);
        },
        type: 'DOUBLE',
      };
    },
  },
  SQRT: unaryNumeric('SQRT', (x) => x ** 0.5, false),
  IF: {
    min: 3,
    max: 3,
    params: ['BOOLEAN', 'ANY', 'ANY'],
    signature: 'IF(condition BOOLEAN, then, else) → the type of then',
    build: ([c, t, e]) => {
      const cf = c.fn,
        tf = t.fn,
        ef = e.fn;
      return { fn: (row) => (cf(row) === true ? tf(row) : ef(row)), type: t.type !== 'UNKNOWN' ? t.type : e.type };
    },
  },
  IFNULL: {
    min: 2,
    max: 2,
    params: ['ANY', 'ANY'],
    signature: 'IFNULL(value, replacement) → value, or replacement when value is NULL',
    build: ([a, b]) => {
      const af = a.fn,
        bf = b.fn;
      return {
        fn: (row) => {
          const v = af(row);
          return v === null || v === undefined ? bf(row) : v;
        },
        type: a.type !== 'UNKNOWN' ? a.type : b.type,
      };
    },
  },
  MOD: {
    min: 2,
    max: 2,
    params: ['NUMERIC', 'NUMERIC'],
    signature: 'MOD(a NUMERIC, b NUMERIC) → the type of a and b',
    build: ([a, b]) => {
      const af = a.fn,
        bf = b.fn;
      return {
        fn: (row) => arithmetic('%', af(row), bf(row), a.type === 'DOUBLE' || b.type === 'DOUBLE'),
        type: a.type === 'BIGINT' && b.type === 'BIGINT' ? 'BIGINT' : 'UNKNOWN',
      };
    },
  },
};
