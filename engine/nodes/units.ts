/**
 * Durations and sizes as people write them in a job file (`"500ms"`, `"5m"`, `"5mb"`) and the
 * numbers the engine uses (milliseconds, bytes). Browser-safe.
 *
 * Rules: a plain non-negative number is already in the base unit; strings are a non-negative
 * decimal number followed by an optional unit, case-insensitive, spaces allowed between them.
 * A string without a unit is read in the base unit too (`"250"` = 250 ms).
 */

import type { DurationInput, SizeInput } from './config.ts';

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};

export type UnitResult = { ok: true; value: number } | { ok: false; message: string };

const PATTERN = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i;

function parseWithUnits(input: unknown, units: Record<string, number>, what: string): UnitResult {
  const allowed = Object.keys(units).join(', ');
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) {
      return { ok: false, message: `${what} must be a non-negative number, got ${input}` };
    }
    return { ok: true, value: input };
  }
  if (input === undefined) {
    return {
      ok: false,
      message: `missing required field (expected a ${what} such as '${what === 'duration' ? '5s' : '5mb'}')`,
    };
  }
  if (typeof input !== 'string') {
    return {
      ok: false,
      message: `${what} must be a number or a string such as '${what === 'duration' ? '5s' : '5mb'}'`,
    };
  }
  const m = PATTERN.exec(input);
  if (!m) {
    return { ok: false, message: `invalid ${what} '${input}': expected a number followed by one of ${allowed}` };
  }
  const unit = m[2].toLowerCase();
  const factor = unit === '' ? 1 : units[unit];
  if (factor === undefined) {
    return { ok: false, message: `invalid ${what} '${input}': unknown unit '${m[2]}' (allowed: ${allowed})` };
  }
  // Round so that '1.5s' is 1500 exactly and '0.1kb' becomes whole bytes.
  return { ok: true, value: Math.round(Number(m[1]) * factor) };
}

export function checkDuration(input: unknown): UnitResult {
  return parseWithUnits(input, DURATION_UNITS, 'duration');
}

export function checkSize(input: unknown): UnitResult {
  return parseWithUnits(input, SIZE_UNITS, 'size');
}

export class UnitError extends Error {
  override name = 'UnitError';
}

/** Milliseconds for a duration; throws UnitError with a readable message on bad input. */
export function parseDuration(input: DurationInput): number {
  const r = checkDuration(input);
  if (!r.ok) throw new UnitError(r.message);
  return r.value;
}

/** Bytes for a size; throws UnitError with a readable message on bad input. */
export function parseSize(input: SizeInput): number {
  const r = checkSize(input);
  if (!r.ok) throw new UnitError(r.message);
  return r.value;
}

function formatWithUnits(value: number, units: Record<string, number>, order: string[]): string {
  if (value === 0) return `0${order[order.length - 1]}`;
  for (const unit of order) {
    const factor = units[unit];
    if (value >= factor && value % factor === 0) return `${value / factor}${unit}`;
  }
  return `${value}${order[order.length - 1]}`;
}

/** The largest exact unit: 1000 -> '1s', 90_000 -> '90s', 1500 -> '1500ms', 0 -> '0ms'. */
export function formatDuration(ms: number): string {
  return formatWithUnits(ms, DURATION_UNITS, ['d', 'h', 'm', 's', 'ms']);
}

/** The largest exact unit: 5_242_880 -> '5mb', 1000 -> '1000b'. */
export function formatSize(bytes: number): string {
  return formatWithUnits(bytes, SIZE_UNITS, ['gb', 'mb', 'kb', 'b']);
}
