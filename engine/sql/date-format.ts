/**
 * DATE_FORMAT's pattern language: the letters of Java's DateTimeFormatter that Flink's
 * DATE_FORMAT(TIMESTAMP, pattern) uses (DateTimeUtils.formatTimestamp: DateTimeFormatter.ofPattern,
 * the timestamp read in UTC as Flink reads a TIMESTAMP without time zone). A pattern compiles once
 * into a list of parts; formatting a time is then string concatenation.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Part = string | ((d: Date) => string);

/** The letters Weir formats; any other ASCII letter outside quotes is an error, as in Java. */
export const DATE_FORMAT_LETTERS = 'y u M L d D H h k K m s S a E';

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function letterPart(letter: string, count: number): ((d: Date) => string) | null {
  switch (letter) {
    case 'y':
    case 'u':
      // Java: two letters give the year modulo 100; otherwise at least `count` digits.
      return count === 2 ? (d) => pad(d.getUTCFullYear() % 100, 2) : (d) => pad(d.getUTCFullYear(), count);
    case 'M':
    case 'L':
      if (count >= 4) return (d) => MONTHS[d.getUTCMonth()];
      if (count === 3) return (d) => MONTHS[d.getUTCMonth()].slice(0, 3);
      return (d) => pad(d.getUTCMonth() + 1, count);
    case 'd':
      return (d) => pad(d.getUTCDate(), count);
    case 'D':
      return (d) => pad(dayOfYear(d), count);
    case 'H':
      return (d) => pad(d.getUTCHours(), count);
    case 'k':
      return (d) => pad(d.getUTCHours() === 0 ? 24 : d.getUTCHours(), count);
    case 'K':
      return (d) => pad(d.getUTCHours() % 12, count);
    case 'h':
      return (d) => pad(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12, count);
    case 'm':
      return (d) => pad(d.getUTCMinutes(), count);
    case 's':
      return (d) => pad(d.getUTCSeconds(), count);
    case 'S':
      // Fraction of the second, truncated to `count` digits (milliseconds, then zeros).
      return (d) => pad(d.getUTCMilliseconds(), 3).padEnd(count, '0').slice(0, count);
    case 'a':
      return (d) => (d.getUTCHours() < 12 ? 'AM' : 'PM');
    case 'E':
      return count >= 4 ? (d) => DAYS[d.getUTCDay()] : (d) => DAYS[d.getUTCDay()].slice(0, 3);
    default:
      return null;
  }
}

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

export interface DatePattern {
  format(epochMs: number): string;
}

/** Compiles `pattern`; throws an Error naming the offending letter or quote. */
export function compileDatePattern(pattern: string): DatePattern {
  const parts: Part[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      // 'text' is literal; '' is one quote, inside or outside quoted text.
      if (pattern[i + 1] === "'") {
        parts.push("'");
        i += 2;
        continue;
      }
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= pattern.length) throw new Error(`unclosed quote in the pattern '${pattern}'`);
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j++];
      }
      parts.push(text);
      i = j + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let n = 1;
      while (pattern[i + n] === c) n++;
      const part = letterPart(c, n);
      if (!part)
        throw new Error(
          `the pattern letter '${c}' is not supported (Weir formats ${DATE_FORMAT_LETTERS}; quote literal text as 'T')`,
        );
      parts.push(part);
      i += n;
    } else {
      parts.push(c);
      i++;
    }
  }
  return {
    format(epochMs) {
      const d = new Date(epochMs);
      let out = '';
      for (const p of parts) out += typeof p === 'string' ? p : p(d);
      return out;
    },
  };
}
