import type { FunctionSpec, SqlType } from './types.ts';
import { roundHalfUp, substringSql, toNumber, toText } from './values.ts';
import { Decimal, decimalAbs, decimalFloorCeil, decimalRound, decimalRoundType } from './decimal.ts';
import { arithmetic } from './arithmetic.ts';
import { REGEXP_EXTRACT, SPLIT_INDEX } from './text-functions.ts';
import { DATE_FORMAT, TO_TIMESTAMP_LTZ } from './time-functions.ts';

/**
 * Scalar functions. Every one returns NULL when an argument it needs is NULL (COALESCE aside);
 * CONCAT is NULL when any argument is NULL, as in Flink.
 */

const num = (v: unknown): number | null => (typeof v === 'number' ? v : toNumber(v));

function numericType(t: SqlType): SqlType {
  return t === 'BIGINT' || t === 'DOUBLE' || t === 'DECIMAL' ? t : 'UNKNOWN';
}

/** A numeric function; `exact` computes it on a DECIMAL argument (keeping it exact), else doubles. */
function unaryNumeric(op: (x: number) => number, keepsType: boolean, exact?: (d: Decimal) => Decimal): FunctionSpec {
  return {
    min: 1,
    max: 1,
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
      };
    },
  };
}

function unaryString(op: (s: string) => unknown, type: SqlType): FunctionSpec {
  return {
    min: 1,
    max: 1,
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

const charLength = unaryString((s) => s.length, 'BIGINT');

const substring: FunctionSpec = {
  min: 2,
  max: 3,
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

const noZero = (x: number): number => (x === 0 ? 0 : x); // no -0 in results
/** NaN and infinities are not JSON values: they become NULL. */
const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

export const FUNCTIONS: Record<string, FunctionSpec> = {
  REGEXP_EXTRACT,
  SPLIT_INDEX,
  DATE_FORMAT,
  TO_TIMESTAMP_LTZ,
  COALESCE: {
    min: 1,
    max: Infinity,
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
  UPPER: unaryString((s) => s.toUpperCase(), 'STRING'),
  LOWER: unaryString((s) => s.toLowerCase(), 'STRING'),
  CHAR_LENGTH: charLength,
  CHARACTER_LENGTH: charLength,
  SUBSTRING: substring,
  SUBSTR: substring,
  CONCAT: {
    min: 1,
    max: Infinity,
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
  ABS: unaryNumeric((x) => noZero(Math.abs(x)), true, decimalAbs),
  FLOOR: unaryNumeric(
    (x) => noZero(Math.floor(x)),
    true,
    (d) => decimalFloorCeil(d, false),
  ),
  CEIL: unaryNumeric(
    (x) => noZero(Math.ceil(x)),
    true,
    (d) => decimalFloorCeil(d, true),
  ),
  CEILING: unaryNumeric(
    (x) => noZero(Math.ceil(x)),
    true,
    (d) => decimalFloorCeil(d, true),
  ),
  ROUND: {
    min: 1,
    max: 2,
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
          : {}),
      };
    },
  },
  TRIM: unaryString((s) => s.replace(/^ +| +$/g, ''), 'STRING'),
  LTRIM: unaryString((s) => s.replace(/^ +/, ''), 'STRING'),
  RTRIM: unaryString((s) => s.replace(/ +$/, ''), 'STRING'),
  REPLACE: {
    min: 3,
    max: 3,
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
  SQRT: unaryNumeric((x) => x ** 0.5, false),
  IF: {
    min: 3,
    max: 3,
    build: ([c, t, e]) => {
      const cf = c.fn,
        tf = t.fn,
        ef = e.fn;
      return { fn: (row) => (cf(row) === true ? tf(row) : ef(row)), type: t.type !== 'UNKNOWN' ? t.type : e.type };
    },
  },
  MOD: {
    min: 2,
    max: 2,
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

/** Known Flink functions Weir rejects on purpose, with the reason shown to the user. */
export const UNSUPPORTED_FUNCTIONS: Record<string, string> = {
  NOW: 'the current time is not deterministic, so a replay after a failure would differ',
  CURRENT_TIMESTAMP: 'the current time is not deterministic, so a replay after a failure would differ',
  LOCALTIMESTAMP: 'the current time is not deterministic, so a replay after a failure would differ',
  PROCTIME: 'Weir windows run on event time',
  RAND: 'random values are not deterministic, so a replay after a failure would differ',
  UUID: 'random values are not deterministic, so a replay after a failure would differ',
};
