/**
 * Reading date-time text by a DateTimeFormatter / SimpleDateFormat pattern, for UNIX_TIMESTAMP and
 * TO_TIMESTAMP: the numeric fields y (year), M (month), d (day), H (hour 0-23), m, s, S (fraction)
 * and quoted or plain literal text, read in UTC (the session zone of every exported script). A
 * pattern with another letter is refused when it is compiled; text that does not match gives null.
 */

export interface DateParser {
  /** Epoch milliseconds of `text`, or null when it does not match the pattern. */
  parse(text: string): number | null;
}

const FIELDS: Record<string, { group: string; field: 'y' | 'M' | 'd' | 'H' | 'm' | 's' | 'S' }> = {
  y: { group: '(\\d{1,9})', field: 'y' },
  M: { group: '(\\d{1,2})', field: 'M' },
  d: { group: '(\\d{1,2})', field: 'd' },
  H: { group: '(\\d{1,2})', field: 'H' },
  m: { group: '(\\d{1,2})', field: 'm' },
  s: { group: '(\\d{1,2})', field: 's' },
  S: { group: '(\\d{1,9})', field: 'S' },
};

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles `pattern`; throws an Error naming an unsupported letter. */
export function compileDateParser(pattern: string): DateParser {
  let source = '^';
  const order: Array<(typeof FIELDS)[string]['field']> = [];
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i];
    if (c === "'") {
      const close = pattern.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed quote in the pattern '${pattern}'`);
      source += close === i + 1 ? "'" : escape(pattern.slice(i + 1, close));
      i = close + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let n = 1;
      while (pattern[i + n] === c) n++;
      const f = FIELDS[c];
      if (!f) throw new Error(`the pattern letter '${c}' is not supported for parsing (Weir reads y M d H m s S)`);
      // A field as wide as its letters when the next one follows without a separator (yyyyMMdd).
      const adjacent = /[A-Za-z]/.test(pattern[i + n] ?? '');
      source += adjacent ? `(\\d{${n}})` : f.group;
      order.push(f.field);
      i += n;
    } else {
      source += escape(c);
      i++;
    }
  }
  const re = new RegExp(`${source}$`);
  return {
    parse(text) {
      const m = re.exec(text.trim());
      if (!m) return null;
      const v = { y: 1970, M: 1, d: 1, H: 0, m: 0, s: 0, S: 0 };
      order.forEach((f, k) => {
        const digits = m[k + 1];
        v[f] = f === 'S' ? Number(digits.padEnd(3, '0').slice(0, 3)) : Number(digits);
      });
      if (v.M < 1 || v.M > 12 || v.d < 1 || v.d > 31 || v.H > 23 || v.m > 59 || v.s > 59) return null;
      const ms = Date.UTC(v.y, v.M - 1, v.d, v.H, v.m, v.s, v.S);
      // Date.UTC rolls 31 February over into March; a real calendar date does not.
      return new Date(ms).getUTCDate() === v.d ? ms : null;
    },
  };
}
