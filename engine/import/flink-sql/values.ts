/** Literal values of a Flink SQL script: identifiers, strings, interval literals, config durations. */
import { unquoteIdent } from '../../export/flink-sql/identifiers.ts';
import { formatDuration } from '../../graph/units.ts';

export { unquoteIdent };

/** `'it''s'` -> `it's`. */
export function unquoteString(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && t.startsWith("'") && t.endsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
  return t;
}

const UNIT_MS: Record<string, number> = {
  MILLISECOND: 1,
  MILLISECONDS: 1,
  SECOND: 1000,
  SECONDS: 1000,
  MINUTE: 60_000,
  MINUTES: 60_000,
  HOUR: 3_600_000,
  HOURS: 3_600_000,
  DAY: 86_400_000,
  DAYS: 86_400_000,
};

/**
 * `'10' SECOND`, `'2:30' MINUTE TO SECOND`, `'1 02:00:00' DAY TO SECOND` (the body of an INTERVAL
 * literal) in milliseconds; null when it is not a day-time interval.
 */
export function intervalMs(body: string): number | null {
  const m = /^'([^']*)'\s+([A-Za-z]+)(?:\s*\(\s*\d+\s*\))?(?:\s+TO\s+([A-Za-z]+))?$/i.exec(body.trim());
  if (!m) return null;
  const value = m[1].trim();
  const from = m[2].toUpperCase();
  if (!m[3]) {
    const n = Number(value);
    return Number.isFinite(n) && UNIT_MS[from] !== undefined ? Math.round(n * UNIT_MS[from]) : null;
  }
  // Multi-field: the fields from `from` down to `to`, separated by ' ' (days) and ':'.
  const order = ['DAY', 'HOUR', 'MINUTE', 'SECOND'];
  const first = order.indexOf(from);
  const last = order.indexOf(m[3].toUpperCase());
  if (first < 0 || last < first) return null;
  const parts = value.split(/[ :]/);
  if (parts.length !== last - first + 1) return null;
  let ms = 0;
  parts.forEach((p, i) => {
    ms += Number(p) * UNIT_MS[order[first + i]];
  });
  return Number.isFinite(ms) ? Math.round(ms) : null;
}

/** Every `INTERVAL '...' UNIT` in an expression, summed with its sign: `rowtime - INTERVAL '5' SECOND`. */
export function intervalsIn(expr: string): { ms: number; count: number } {
  const re = /([+-])?\s*INTERVAL\s+('[^']*'\s+[A-Za-z]+(?:\s+TO\s+[A-Za-z]+)?)/gi;
  let ms = 0;
  let count = 0;
  for (let m = re.exec(expr); m; m = re.exec(expr)) {
    const v = intervalMs(m[2]);
    if (v === null) continue;
    ms += m[1] === '+' ? v : -v;
    count++;
  }
  return { ms, count };
}

/** Flink's configuration duration (`1 s`, `10 min`, `500 ms`, `PT1S` not supported) in ms. */
export function configMs(text: string): number | null {
  const m =
    /^\s*(\d+(?:\.\d+)?)\s*(ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|min|m|minute|minutes|h|hour|hours|d|day|days)?\s*$/i.exec(
      text,
    );
  if (!m) return null;
  const unit = (m[2] ?? 'ms').toLowerCase();
  const size = /^(ms|milli)/.test(unit)
    ? 1
    : /^s/.test(unit)
      ? 1000
      : /^(min|m$|minute)/.test(unit)
        ? 60_000
        : /^h/.test(unit)
          ? 3_600_000
          : 86_400_000;
  return Math.round(Number(m[1]) * size);
}

/** A Weir duration string for milliseconds: `10s`, `500ms`. */
export function weirDuration(ms: number): string {
  return formatDuration(ms);
}
