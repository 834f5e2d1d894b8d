/**
 * Signed durations, for interval join bounds (`"lower": "-5s"`): a leading `-` in front of an
 * ordinary duration (see units.ts). Everything else in a job is a non-negative duration.
 * Browser-safe.
 */
import type { DurationInput } from './config.ts';
import { checkDuration, formatDuration, UnitError, type UnitResult } from './units.ts';

export function checkSignedDuration(input: unknown): UnitResult {
  if (typeof input === 'number') {
    return Number.isFinite(input)
      ? { ok: true, value: input }
      : { ok: false, message: `duration must be a finite number, got ${input}` };
  }
  if (typeof input === 'string') {
    const m = /^\s*-\s*(.*)$/s.exec(input);
    if (m) {
      const r = checkDuration(m[1]);
      return r.ok
        ? { ok: true, value: -r.value }
        : { ok: false, message: r.message.replace(`'${m[1]}'`, `'${input}'`) };
    }
  }
  return checkDuration(input);
}

export function parseSignedDuration(input: DurationInput): number {
  const r = checkSignedDuration(input);
  if (!r.ok) throw new UnitError(r.message);
  return r.value;
}

/** `-5000` -> `'-5s'`. */
export function formatSignedDuration(ms: number): string {
  return ms < 0 ? `-${formatDuration(-ms)}` : formatDuration(ms);
}
