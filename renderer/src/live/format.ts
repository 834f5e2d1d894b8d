/** Number formats of the live panel: short, unit-bearing, never `NaN`. */

export function bytes(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '—';
  if (n < 1024) return `${Math.round(n)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function duration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  // 1 s, 1.5 s, 2.25 s: no trailing zeros.
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 1))} s`;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h ? `${h}h ${m}m ${sec}s` : `${m}m ${sec}s`;
}

/** Uptime as a clock: 0:07, 12:03, 1:02:03. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Wall-clock time of day (local), to the second. */
export function timeOfDay(epochMs: number | null | undefined): string {
  if (epochMs == null || !Number.isFinite(epochMs)) return '—';
  const d = new Date(epochMs);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
}

/** An event-time watermark: UTC time of day with milliseconds (event time is not wall time). */
export function watermark(epochMs: number | null | undefined): string {
  if (epochMs == null || !Number.isFinite(epochMs)) return 'none yet';
  if (epochMs <= -8.64e15 || epochMs >= 8.64e15) return epochMs > 0 ? '+∞ (end)' : '−∞';
  return new Date(epochMs).toISOString().slice(11, 23);
}

export function rate(perSecond: number | null | undefined): string {
  if (perSecond == null || !Number.isFinite(perSecond)) return '—';
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)}M/s`;
  if (perSecond >= 1e4) return `${Math.round(perSecond / 1000)}k/s`;
  if (perSecond >= 1000) return `${(perSecond / 1000).toFixed(1)}k/s`;
  return `${Math.round(perSecond)}/s`;
}

// One formatter for every cell: Number#toLocaleString builds a new one per call, which the bench's
// page profile showed as the largest script cost of a live metrics update (~7.5 ms per update).
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

export function count(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '—';
  return COUNT_FORMAT.format(n);
}

/** A count in at most four characters for canvas badges: 950, 12.3k, 4.1M. */
export function compact(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 1e6) return `${Number((n / 1e3).toFixed(a < 1e4 ? 1 : 0))}k`;
  if (a < 1e9) return `${Number((n / 1e6).toFixed(a < 1e7 ? 1 : 0))}M`;
  return `${Number((n / 1e9).toFixed(1))}G`;
}
