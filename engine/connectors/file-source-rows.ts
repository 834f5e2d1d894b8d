/**
 * What `source.file` (file-source.ts) makes of one line of text on its slow path: a JSON Lines row,
 * and any row's event time, or why the line is a bad record.
 */
import type { Row } from '../contracts/operator.ts';
import { eventTimeInRange, MAX_EVENT_TIME, parseEventTime } from './formats/event-time.ts';

/** The line's JSON object, or why it is a bad record. */
export function jsonLineRow(text: string): Row | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `invalid JSON (${(e as Error).message})`;
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : 'expected a JSON object';
}

/** The row's event time in `field` (NaN without an event-time field), or why the row is a bad record. */
export function eventTimeOf(field: string | undefined, row: Row): number | string {
  if (field === undefined) return NaN;
  const t = parseEventTime(row[field]);
  if (Number.isNaN(t)) return `field '${field}' is not a timestamp (epoch ms or ISO-8601)`;
  if (!eventTimeInRange(t))
    return `field '${field}' = ${t} is outside the representable event-time range (±${MAX_EVENT_TIME} ms)`;
  return t;
}
