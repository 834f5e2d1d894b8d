/**
 * Durations (milliseconds) spelled for Flink: SQL interval literals for windows and watermarks, and
 * Flink's configuration duration format (`10 s`, `5 min`) for SET statements.
 */
const UNITS: Array<[string, number]> = [
  ['DAY', 86_400_000],
  ['HOUR', 3_600_000],
  ['MINUTE', 60_000],
  ['SECOND', 1000],
];

/**
 * `INTERVAL '10' SECOND`. Calcite gives every interval field a default leading precision of 2, so
 * Flink rejects `INTERVAL '150' SECOND`; a value that needs 3 digits in its best unit is written
 * as a multi-field literal instead (`INTERVAL '2:30' MINUTE TO SECOND`). Durations that are not
 * whole seconds get a fraction (`INTERVAL '0.25' SECOND`).
 */
export function intervalLiteral(ms: number): string {
  const n = Math.max(0, Math.round(ms));
  for (const [unit, size] of UNITS) {
    if (n > 0 && n % size === 0 && n / size < 100) return `INTERVAL '${n / size}' ${unit}`;
  }
  if (n < 100_000) return `INTERVAL '${seconds(n)}' SECOND`;
  const pad = (v: number) => String(v).padStart(2, '0');
  const s = seconds(n % 60_000);
  const sec = s.includes('.') && s.indexOf('.') < 2 ? '0' + s : s.padStart(2, '0');
  const minutes = Math.floor(n / 60_000);
  if (minutes < 100) return `INTERVAL '${minutes}:${sec}' MINUTE TO SECOND`;
  const hours = Math.floor(n / 3_600_000);
  if (hours < 100) return `INTERVAL '${hours}:${pad(minutes % 60)}:${sec}' HOUR TO SECOND`;
  const days = Math.floor(n / 86_400_000); // 100 days and more exceed DAY(2): Flink rejects those
  return `INTERVAL '${days} ${pad(hours % 24)}:${pad(minutes % 60)}:${sec}' DAY TO SECOND`;
}

/** Whole seconds with the milliseconds as a fraction only when there are any: `5`, `0.25`. */
function seconds(ms: number): string {
  const frac = String(ms % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${Math.floor(ms / 1000)}${frac ? '.' + frac : ''}`;
}

const CONFIG_UNITS: Array<[string, number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/** Flink's configuration duration syntax (TimeUtils.parseDuration): `1 s`, `10 min`, `250 ms`. */
export function configDuration(ms: number): string {
  const n = Math.max(0, Math.round(ms));
  for (const [unit, size] of CONFIG_UNITS) {
    if (n > 0 && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} ms`;
}
