/**
 * Flink's string functions beyond the basics of functions.ts, with its NULL rules: NULL when an
 * argument is NULL unless the function says otherwise (CONCAT_WS skips NULL strings, IS_ALPHA and
 * friends are FALSE). Positions are 1-based and count UTF-16 code units, as Java's String does.
 * The bodies follow Flink's SqlFunctionUtils / BinaryStringDataUtil (cited per function).
 */
import type { FunctionSpec } from './types.ts';
import { int, strict, text } from './function-args.ts';

const s = (v: unknown): string => text(v) ?? '';
const n = (v: unknown): number | null => int(v);

/** SqlFunctionUtils.lpad / rpad: NULL for a negative length or an empty pad; cut to `len`. */
function pad(base: string, len: number, padding: string, left: boolean): string | null {
  if (len < 0 || padding === '') return null;
  const fill = Math.max(len - base.length, 0);
  let p = '';
  while (p.length < fill) p += padding;
  p = p.slice(0, fill);
  const kept = base.slice(0, len - fill);
  return left ? p + kept : kept + p;
}

/** Calcite's initcap (Flink's INITCAP): ASCII letters and digits make words; the rest separates. */
function initcap(str: string): string {
  let out = '';
  let start = true;
  for (const ch of str) {
    const c = ch.charCodeAt(0);
    const digit = c > 47 && c < 58,
      upper = c > 64 && c < 91,
      lower = c > 96 && c < 123;
    if (start) {
      if (digit || upper || lower) start = false;
      out += lower ? ch.toUpperCase() : ch;
    } else {
      if (!digit && !upper && !lower) start = true;
      out += upper ? ch.toLowerCase() : ch;
    }
  }
  return out;
}

const utf8 = new TextEncoder();
const utf8Decode = new TextDecoder('utf-8');
function toBase64(str: string): string {
  let bin = '';
  for (const b of utf8.encode(str)) bin += String.fromCharCode(b);
  return btoa(bin);
}
function fromBase64(str: string): string | null {
  try {
    const bin = atob(str);
    return utf8Decode.decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** 1-based position of `needle` in `hay` from 1-based `from`, 0 when absent (Flink's POSITION, LOCATE). */
const positionOf = (needle: string, hay: string, from = 1): number =>
  from < 1 ? 0 : hay.indexOf(needle, from - 1) + 1;

/** Calcite's TRIM with characters: removes any of `chars` from the chosen ends. */
export function trimChars(str: string, chars: string, leading: boolean, trailing: boolean): string {
  let a = 0,
    b = str.length;
  if (leading) while (a < b && chars.includes(str[a])) a++;
  if (trailing) while (b > a && chars.includes(str[b - 1])) b--;
  return str.slice(a, b);
}

export const STRING_FUNCTIONS: Record<string, FunctionSpec> = {
  CONCAT_WS: {
    min: 1,
    max: Infinity,
    params: ['STRING'],
    signature: 'CONCAT_WS(separator STRING, s STRING, ...) → STRING',
    build: (args) => {
      const [sep, ...rest] = args.map((a) => a.fn);
      return {
        fn: (row) => {
          const separator = text(sep(row));
          if (separator === null) return null;
          const parts: string[] = [];
          for (const f of rest) {
            const v = text(f(row));
            if (v !== null) parts.push(v);
          }
          return parts.join(separator);
        },
        type: 'STRING',
      };
    },
  },
  LPAD: strict(
    {
      min: 3,
      max: 3,
      params: ['STRING', 'INTEGER', 'STRING'],
      signature: 'LPAD(s STRING, len INT, pad STRING) → STRING',
      type: 'STRING',
    },
    ([a, l, p]) => pad(s(a), n(l)!, s(p), true),
  ),
  RPAD: strict(
    {
      min: 3,
      max: 3,
      params: ['STRING', 'INTEGER', 'STRING'],
      signature: 'RPAD(s STRING, len INT, pad STRING) → STRING',
      type: 'STRING',
    },
    ([a, l, p]) => pad(s(a), n(l)!, s(p), false),
  ),
  REPEAT: strict(
    {
      min: 2,
      max: 2,
      params: ['STRING', 'INTEGER'],
      signature: 'REPEAT(s STRING, times INT) → STRING',
      type: 'STRING',
    },
    ([a, k]) => s(a).repeat(Math.max(0, n(k)!)),
  ),
  INITCAP: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'INITCAP(s STRING) → STRING', type: 'STRING' },
    ([a]) => initcap(s(a)),
  ),
  REVERSE: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'REVERSE(s STRING) → STRING', type: 'STRING' },
    // Java's StringBuilder.reverse keeps surrogate pairs together, as iterating code points does.
    ([a]) => [...s(a)].reverse().join(''),
  ),
  POSITION: strict(
    {
      min: 2,
      max: 2,
      params: ['STRING', 'STRING'],
      signature: 'POSITION(needle STRING IN s STRING) → INT',
      type: 'BIGINT',
    },
    ([needle, hay]) => positionOf(s(needle), s(hay)),
  ),
  LOCATE: strict(
    {
      min: 2,
      max: 3,
      params: ['STRING', 'STRING', 'INTEGER'],
      signature: 'LOCATE(needle STRING, s STRING[, from INT]) → INT',
      type: 'BIGINT',
    },
    ([needle, hay, from]) => positionOf(s(needle), s(hay), from === undefined ? 1 : n(from)!),
  ),
  INSTR: strict(
    { min: 2, max: 2, params: ['STRING', 'STRING'], signature: 'INSTR(s STRING, needle STRING) → INT', type: 'BIGINT' },
    ([hay, needle]) => positionOf(s(needle), s(hay)),
  ),
  OVERLAY: strict(
    {
      min: 3,
      max: 4,
      params: ['STRING', 'STRING', 'INTEGER', 'INTEGER'],
      signature: 'OVERLAY(s STRING PLACING r STRING FROM pos INT [FOR len INT]) → STRING',
      type: 'STRING',
    },
    // Calcite's SqlFunctions.overlay: s[0, pos - 1) + r + s[pos - 1 + len, end).
    ([a, r, p, l]) => {
      const str = s(a),
        rep = s(r),
        pos = n(p)!,
        len = l === undefined ? rep.length : n(l)!;
      return str.slice(0, Math.max(0, pos - 1)) + rep + str.slice(Math.max(0, pos - 1 + len));
    },
  ),
  LEFT: strict(
    { min: 2, max: 2, params: ['STRING', 'INTEGER'], signature: 'LEFT(s STRING, len INT) → STRING', type: 'STRING' },
    ([a, l]) => s(a).slice(0, Math.max(0, n(l)!)),
  ),
  RIGHT: strict(
    { min: 2, max: 2, params: ['STRING', 'INTEGER'], signature: 'RIGHT(s STRING, len INT) → STRING', type: 'STRING' },
    ([a, l]) => {
      const str = s(a),
        k = n(l)!;
      return k <= 0 ? '' : str.slice(Math.max(0, str.length - k));
    },
  ),
  ASCII: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'ASCII(s STRING) → INT', type: 'BIGINT' },
    // Flink's ASCII reads the first UTF-8 byte as a Java (signed) byte: ASCII('é') = -61
    // (measured on Flink 1.20); 0 for an empty string.
    ([a]) => {
      const first = utf8.encode(s(a))[0];
      return first === undefined ? 0 : (first << 24) >> 24;
    },
  ),
  CHR: strict(
    { min: 1, max: 1, params: ['INTEGER'], signature: 'CHR(code INT) → STRING', type: 'STRING' },
    // SqlFunctionUtils.chr: '' for a negative code, else the character (code & 0xFF).
    ([c]) => {
      const code = n(c)!;
      return code < 0 ? '' : String.fromCharCode(code & 0xff);
    },
  ),
  TO_BASE64: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'TO_BASE64(s STRING) → STRING', type: 'STRING' },
    ([a]) => toBase64(s(a)),
  ),
  FROM_BASE64: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'FROM_BASE64(s STRING) → STRING', type: 'STRING' },
    ([a]) => fromBase64(s(a)),
  ),
  STARTSWITH: strict(
    {
      min: 2,
      max: 2,
      params: ['STRING', 'STRING'],
      signature: 'STARTSWITH(s STRING, prefix STRING) → BOOLEAN',
      type: 'BOOLEAN',
    },
    ([a, b]) => s(a).startsWith(s(b)),
  ),
  ENDSWITH: strict(
    {
      min: 2,
      max: 2,
      params: ['STRING', 'STRING'],
      signature: 'ENDSWITH(s STRING, suffix STRING) → BOOLEAN',
      type: 'BOOLEAN',
    },
    ([a, b]) => s(a).endsWith(s(b)),
  ),
  BTRIM: strict(
    {
      min: 1,
      max: 2,
      params: ['STRING', 'STRING'],
      signature: 'BTRIM(s STRING[, chars STRING]) → STRING',
      type: 'STRING',
    },
    ([a, c]) => trimChars(s(a), c === undefined ? ' ' : s(c), true, true),
  ),
  TRANSLATE: strict(
    {
      min: 3,
      max: 3,
      params: ['STRING', 'STRING', 'STRING'],
      signature: 'TRANSLATE(s STRING, from STRING, to STRING) → STRING',
      type: 'STRING',
    },
    // Each character of `from` becomes the one at its place in `to`, or goes when `to` is shorter.
    ([a, f, t]) => {
      const from = s(f),
        to = s(t);
      let out = '';
      for (const ch of s(a)) {
        const i = from.indexOf(ch);
        out += i < 0 ? ch : i < to.length ? to[i] : '';
      }
      return out;
    },
  ),
  ELT: {
    min: 2,
    max: Infinity,
    params: ['INTEGER', 'STRING'],
    signature: 'ELT(index INT, s STRING, ...) → STRING',
    // The index-th string (1-based); NULL for a NULL or out-of-range index.
    build: ([i, ...rest]) => {
      const idx = i.fn,
        fns = rest.map((a) => a.fn);
      return {
        fn: (row) => {
          const k = int(idx(row));
          return k === null || k < 1 || k > fns.length ? null : text(fns[k - 1](row));
        },
        type: 'STRING',
      };
    },
  },
};

/** IS_ALPHA, IS_DIGIT, IS_DECIMAL: FALSE (never NULL) for NULL or an empty string (commons-lang). */
function predicate(name: string, test: (str: string) => boolean): FunctionSpec {
  return {
    min: 1,
    max: 1,
    params: ['STRING'],
    signature: `${name}(s STRING) → BOOLEAN`,
    build: ([a]) => {
      const f = a.fn;
      return {
        fn: (row) => {
          const v = text(f(row));
          return v !== null && v !== '' && test(v);
        },
        type: 'BOOLEAN',
      };
    },
  };
}

export const STRING_PREDICATES: Record<string, FunctionSpec> = {
  IS_ALPHA: predicate('IS_ALPHA', (v) => /^\p{L}+$/u.test(v)),
  IS_DIGIT: predicate('IS_DIGIT', (v) => /^\p{Nd}+$/u.test(v)),
  // NumberUtils.isParsable-like: an optional sign, digits with at most one point.
  IS_DECIMAL: predicate('IS_DECIMAL', (v) => /^[-+]?(\d+\.?\d*|\.\d+)$/.test(v) && !/^[-+]?\d+\.$/.test(v)),
};
