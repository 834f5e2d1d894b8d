/**
 * A JSON Lines decoder that builds only the columns a job reads (engine/graph/read-columns.ts),
 * straight from the line's bytes: no string for the whole line, no `JSON.parse`, no object with
 * fields nobody reads. It still checks the whole line's syntax (skipped values too), because a
 * line `JSON.parse` rejects must stay a bad record.
 *
 * Rule: `decode` either returns the row `JSON.parse` would give, restricted to the columns (same
 * values: numbers correctly rounded, strings decoded as UTF-8, the last of duplicate keys), or
 * null, and the caller then takes the old path (`JSON.parse` of the decoded line, then `project`).
 * It returns null for anything it does not handle itself: escapes in a read string or in any key,
 * a nested object or array as a read value, invalid syntax, a line not starting with `{`.
 * test/engine/connectors/jsonl-projection.property.test.ts compares it with JSON.parse.
 */
import type { Row } from '../contracts/operator.ts';

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON = 0x3a,
  LBRACE = 0x7b,
  RBRACE = 0x7d,
  LBRACKET = 0x5b,
  RBRACKET = 0x5d,
  MINUS = 0x2d,
  ZERO = 0x30,
  NINE = 0x39;
const STRING_CACHE = 256,
  MAX_CACHED_LENGTH = 24;
/** Deeper nesting in a skipped value is left to JSON.parse. */
const MAX_DEPTH = 64;
/** Exact powers of ten as literals (Math.pow is not guaranteed exact). */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipWs(b: Buffer, i: number, end: number): number {
  while (i < end && isWs(b[i])) i++;
  return i;
}

/** After a literal (`true`, `false`, `null`) at i, or -1. */
function literalEnd(b: Buffer, i: number, end: number, text: string): number {
  if (i + text.length > end) return -1;
  for (let k = 0; k < text.length; k++) if (b[i + k] !== text.charCodeAt(k)) return -1;
  return i + text.length;
}

/** After a string starting at the quote at i (escapes checked), or -1. */
function skipString(b: Buffer, i: number, end: number): number {
  for (let k = i + 1; k < end; k++) {
    const c = b[k];
    if (c === QUOTE) return k + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = b[++k];
      if (e === 0x75) {
        for (let h = 1; h <= 4; h++) if (!isHex(b[k + h])) return -1;
        k += 4;
      } else if (!(
        e === QUOTE ||
        e === BACKSLASH ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      ))
        return -1;
    }
  }
  return -1;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/** After any JSON value at i, checked but not built, or -1. */
function skipValue(b: Buffer, i: number, end: number, depth: number): number {
  if (i >= end) return -1;
  const c = b[i];
  if (c === QUOTE) return skipString(b, i, end);
  if (c === MINUS || (c >= ZERO && c <= NINE)) return numberEnd(b, i, end);
  if (c === 0x74) return literalEnd(b, i, end, 'true');
  if (c === 0x66) return literalEnd(b, i, end, 'false');
  if (c === 0x6e) return literalEnd(b, i, end, 'null');
  if (depth >= MAX_DEPTH || (c !== LBRACE && c !== LBRACKET)) return -1;
  const obj = c === LBRACE;
  const close = obj ? RBRACE : RBRACKET;
  i = skipWs(b, i + 1, end);
  if (i < end && b[i] === close) return i + 1;
  for (;;) {
    if (obj) {
      if (i >= end || b[i] !== QUOTE) return -1;
      i = skipWs(b, skipString(b, i, end), end);
      if (i < 0 || i >= end || b[i] !== COLON) return -1;
      i = skipWs(b, i + 1, end);
    }
    i = skipValue(b, i, end, depth + 1);
    if (i < 0) return -1;
    i = skipWs(b, i, end);
    if (i >= end) return -1;
    if (b[i] === close) return i + 1;
    if (b[i] !== COMMA) return -1;
    i = skipWs(b, i + 1, end);
  }
}

/** After a number at i in JSON's grammar (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), or -1. */
function numberEnd(b: Buffer, i: number, end: number): number {
  if (b[i] === MINUS) i++;
  if (i >= end) return -1;
  if (b[i] === ZERO) i++;
  else if (b[i] > ZERO && b[i] <= NINE) while (i < end && b[i] >= ZERO && b[i] <= NINE) i++;
  else return -1;
  if (i < end && b[i] === 0x2e) {
    const s = ++i;
    while (i < end && b[i] >= ZERO && b[i] <= NINE) i++;
    if (i === s) return -1;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === MINUS)) i++;
    const s = i;
    while (i < end && b[i] >= ZERO && b[i] <= NINE) i++;
    if (i === s) return -1;
  }
  return i;
}

export class JsonlProjector {
  private readonly keys: Buffer[];
  private readonly anyNonAscii: boolean;
  /** The value `readValue` decoded (a field, not a returned pair: no allocation per value). */
  private value: unknown = null;
  /**
   * Recent short ASCII strings by a hash of their bytes: a column of few distinct values (a
   * category, a country) then reuses one string instead of allocating one per row.
   */
  private readonly strings: Array<string | undefined> = new Array<string | undefined>(STRING_CACHE).fill(undefined);

  private constructor(private readonly names: readonly string[]) {
    this.keys = names.map((n) => Buffer.from(n, 'utf8'));
    this.anyNonAscii = this.keys.some((k, i) => k.length !== names[i].length);
  }

  /** A projector for `columns`, or null when they cannot be projected safely. */
  static for(columns: readonly string[]): JsonlProjector | null {
    // `row.__proto__ = v` would set the prototype; JSON.parse makes an own property.
    if (columns.includes('__proto__')) return null;
    return new JsonlProjector([...new Set(columns)]);
  }

  /** The row `JSON.parse` would give for bytes [start, end), restricted to the columns; null: take the slow path. */
  decode(b: Buffer, start: number, end: number): Row | null {
    let i = skipWs(b, start, end);
    if (i >= end || b[i] !== LBRACE) return null;
    i = skipWs(b, i + 1, end);
    const row: Row = {};
    if (i < end && b[i] === RBRACE) return skipWs(b, i + 1, end) === end ? row : null;
    for (;;) {
      if (i >= end || b[i] !== QUOTE) return null;
      const ks = i + 1;
      let k = ks,
        high = false;
      for (; k < end; k++) {
        const c = b[k];
        if (c === QUOTE) break;
        if (c === BACKSLASH || c < 0x20) return null;
        if (c >= 0x80) high = true;
      }
      if (k >= end) return null;
      const col = this.match(b, ks, k, high);
      i = skipWs(b, k + 1, end);
      if (i >= end || b[i] !== COLON) return null;
      i = skipWs(b, i + 1, end);
      if (col >= 0) {
        i = this.readValue(b, i, end);
        if (i < 0) return null;
        row[this.names[col]] = this.value;
      } else {
        i = skipValue(b, i, end, 0);
        if (i < 0) return null;
      }
      i = skipWs(b, i, end);
      if (i >= end) return null;
      if (b[i] === RBRACE) return skipWs(b, i + 1, end) === end ? row : null;
      if (b[i] !== COMMA) return null;
      i = skipWs(b, i + 1, end);
    }
  }

  /** A whole parsed row restricted to the columns (the slow path's rows get the same shape). */
  project(full: Row): Row {
    const row: Row = {};
    for (const n of this.names) if (Object.hasOwn(full, n)) row[n] = full[n];
    return row;
  }

  /** Index of the column named by key bytes [s, e), or -1. */
  private match(b: Buffer, s: number, e: number, high: boolean): number {
    if (high) return this.anyNonAscii ? this.names.indexOf(b.toString('utf8', s, e)) : -1;
    const len = e - s;
    next: for (let c = 0; c < this.keys.length; c++) {
      const k = this.keys[c];
      if (k.length !== len) continue;
      for (let x = 0; x < len; x++) if (b[s + x] !== k[x]) continue next;
      return c;
    }
    return -1;
  }

  /** Decodes a read column's value at i into `this.value`; returns the index after it, or -1. */
  private readValue(b: Buffer, i: number, end: number): number {
    if (i >= end) return -1;
    const c = b[i];
    if (c === QUOTE) {
      let high = false,
        k = i + 1;
      for (; k < end; k++) {
        const d = b[k];
        if (d === QUOTE) break;
        if (d === BACKSLASH || d < 0x20) return -1;
        if (d >= 0x80) high = true;
      }
      if (k >= end) return -1;
      this.value = high ? b.toString('utf8', i + 1, k) : this.ascii(b, i + 1, k);
      return k + 1;
    }
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.readNumber(b, i, end);
    let e = -1;
    if (c === 0x74 && (e = literalEnd(b, i, end, 'true')) > 0) this.value = true;
    else if (c === 0x66 && (e = literalEnd(b, i, end, 'false')) > 0) this.value = false;
    else if (c === 0x6e && (e = literalEnd(b, i, end, 'null')) > 0) this.value = null;
    return e;
  }

  /** The ASCII bytes [s, e) as a string, from the cache when the same bytes were seen lately. */
  private ascii(b: Buffer, s: number, e: number): string {
    const len = e - s;
    if (len === 0) return '';
    if (len > MAX_CACHED_LENGTH) return b.toString('latin1', s, e);
    let h = len;
    for (let k = s; k < e; k++) h = (h * 31 + b[k]) | 0;
    h &= STRING_CACHE - 1;
    const hit = this.strings[h];
    if (hit !== undefined && hit.length === len) {
      let k = 0;
      while (k < len && hit.charCodeAt(k) === b[s + k]) k++;
      if (k === len) return hit;
    }
    const str = b.toString('latin1', s, e);
    this.strings[h] = str;
    return str;
  }

  /**
   * Up to 15 significant digits and 22 decimals, m / 10^k is the correctly rounded double (both
   * exact doubles, one IEEE division), which is what JSON.parse gives; beyond, Number() of the text.
   */
  private readNumber(b: Buffer, i: number, end: number): number {
    // One pass: JSON's grammar (-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?) and the digits as m.
    let k = i,
      m = 0,
      digits = 0,
      frac = 0;
    const neg = b[k] === MINUS;
    if (neg) k++;
    if (k >= end) return -1;
    if (b[k] === ZERO) {
      k++;
      digits = 1;
    } else if (b[k] > ZERO && b[k] <= NINE) {
      for (; k < end && b[k] >= ZERO && b[k] <= NINE; k++, digits++) m = m * 10 + (b[k] - ZERO);
    } else return -1;
    if (k < end && b[k] === 0x2e) {
      const s = ++k;
      for (; k < end && b[k] >= ZERO && b[k] <= NINE; k++) m = m * 10 + (b[k] - ZERO);
      frac = k - s;
      if (frac === 0) return -1;
      digits += frac;
    }
    if (k < end && (b[k] === 0x65 || b[k] === 0x45)) {
      const e = numberEnd(b, i, end); // the exponent: checked there, converted by Number()
      if (e < 0) return -1;
      this.value = Number(b.toString('latin1', i, e));
      return e;
    }
    if (digits <= 15 && frac <= 22) {
      const v = frac > 0 ? m / POW10[frac] : m;
      this.value = neg ? -v : v;
    } else this.value = Number(b.toString('latin1', i, k));
    return k;
  }
}
