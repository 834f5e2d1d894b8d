/**
 * Durations (milliseconds) spelled for Flink: SQL interval literals for windows and watermarks, and
 * Flink's configuration duration format (`10 s`, `5 min`) for SET statements.
 */
const UNITS: Array<[string, number]> = [['DAY', 86_400_000], ['HOUR', 3_600_000], ['MINUTE', 60_000], ['SECOND', 1000]];

/**
 * `INTERVAL '10' SECOND`. Calcite gives every interval field a default leading precision of 2, so
 * `INTERVAL '300' SECOND` is rejected by Flink; values of 100 and more carry an explicit precision.
 * Durations that are not whole seconds become fractional seconds (`INTERVAL '0.25' SECOND`).
 */
export function intervalLiteral(ms: number): string {
  const n = Math.max(0, Math.round(ms));
  for (const [unit, size] of UNITS) {
    if (n > 0 && n % size === 0) {
      const v = n / size;
      return `INTERVAL '${v}' ${unit}${precision(v)}`;
    }
  }
  const whole = Math.floor(n / 1000);
  const frac = String(n % 1000).padStart(3, '0').replace(/0+$/, '');
  return `INTERVAL '${whole}${frac ? '.' + frac : ''}' SECOND${precision(whole)}`;
}

function precision(leading: number): string {
  const digits = String(leading).length;
  return digits > 2 ? `(${digits})` : '';
}

const CONFIG_UNITS: Array<[string, number]> = [['d', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]];

/** Flink's configuration duration syntax (TimeUtils.parseDuration): `1 s`, `10 min`, `250 ms`. */
export function configDuration(ms: number): string {
  const n = Math.max(0, Math.round(ms));
  for (const [unit, size] of CONFIG_UNITS) {
    if (n > 0 && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} ms`;
}
