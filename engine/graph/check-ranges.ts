/**
 * Ranges the schema cannot express: every duration, size, count and timestamp of a job has a
 * checked bound, so no value overflows a timer or makes event-time arithmetic inexact.
 *
 * - Durations that become timers (checkpoint interval, timeout, min pause, restart delay, idle
 *   timeout): at most 2^31-1 ms (about 24.8 days), Node's timer limit; a longer timer would fire
 *   after 1 ms.
 * - Event-time durations (window size, slide, gap, allowed lateness, out-of-orderness): at most
 *   1000 years, so window ends of any representable event time stay exact (below 2^53).
 * - Timestamps (generator startTime and its last record): within ±8.64e15 ms (the Date range).
 * - Sizes: memoryStateLimit at most 512mb (a snapshot crosses the task channel as one JSON string).
 * - Counts: safe integers; parallelism at most 1024; a preview limit at most 100000.
 * Browser-safe.
 */
import type { JobDocument, JobProblem, DurationInput } from './types.ts';
import { checkDuration, checkSize } from './units.ts';
import { NEXMARK_DEFAULT_BASE_TIME, NEXMARK_DEFAULT_EVENT_RATE } from './nexmark.ts';

export const MAX_TIMER_MS = 2 ** 31 - 1;
export const MAX_EVENT_DURATION_MS = 1000 * 365 * 86_400_000;
export const MAX_TIMESTAMP_MS = 8.64e15;
export const MAX_MEMORY_STATE_BYTES = 512 * 1024 * 1024;

export function checkRanges(doc: JobDocument, problems: JobProblem[]): void {
  const add = (path: string, message: string, nodeId?: string) =>
    problems.push({ path, message, severity: 'error', ...(nodeId ? { nodeId } : {}) });
  const duration = (path: string, v: DurationInput | null | undefined, max: number, why: string, nodeId?: string) => {
    if (v === undefined || v === null) return;
    const r = checkDuration(v);
    if (r.ok && r.value > max) add(path, `${r.value} ms is too long: at most ${max} ms (${why})`, nodeId);
  };
  const timer = (path: string, v: DurationInput | null | undefined, nodeId?: string) =>
    duration(path, v, MAX_TIMER_MS, "about 24.8 days, Node's timer limit", nodeId);
  const span = (path: string, v: DurationInput | null | undefined, nodeId?: string) =>
    duration(path, v, MAX_EVENT_DURATION_MS, '1000 years', nodeId);
  const int = (path: string, v: number | undefined, max: number, nodeId?: string) => {
    if (v !== undefined && v > max) add(path, `${v} is too large: at most ${max}`, nodeId);
  };

  const s = doc.settings;
  timer('settings.checkpointing.interval', s?.checkpointing?.interval);
  timer('settings.checkpointing.timeout', s?.checkpointing?.timeout);
  timer('settings.checkpointing.minPause', s?.checkpointing?.minPause);
  timer('settings.restart.delay', s?.restart?.delay);
  int('settings.restart.attempts', s?.restart?.attempts, Number.MAX_SAFE_INTEGER);
  int('settings.checkpointing.retained', s?.checkpointing?.retained, 10_000);
  int('settings.checkpointing.tolerableFailures', s?.checkpointing?.tolerableFailures, Number.MAX_SAFE_INTEGER);
  int('settings.parallelism', s?.parallelism, 1024);
  if (s?.memoryStateLimit !== undefined) {
    const r = checkSize(s.memoryStateLimit);
    if (r.ok && r.value > MAX_MEMORY_STATE_BYTES) {
      add(
        'settings.memoryStateLimit',
        `${r.value} bytes is too large: at most ${MAX_MEMORY_STATE_BYTES} (512mb); use the fs or rocksdb backend for larger state`,
      );
    }
  }

  doc.nodes.forEach((n, i) => {
    const p = `nodes[${i}]`;
    int(`${p}.parallelism`, n.parallelism, 1024, n.id);
    switch (n.type) {
      case 'source.file':
      case 'source.generator':
      case 'source.postgres': {
        const et = n.config.eventTime;
        span(`${p}.config.eventTime.maxOutOfOrderness`, et?.maxOutOfOrderness, n.id);
        timer(`${p}.config.eventTime.idleTimeout`, et?.idleTimeout, n.id);
        if (n.type !== 'source.generator') break;
        const c = n.config;
        span(`${p}.config.outOfOrderness`, c.outOfOrderness, n.id);
        int(`${p}.config.count`, c.count, Number.MAX_SAFE_INTEGER, n.id);
        int(`${p}.config.keys`, c.keys, 1_000_000_000, n.id);
        if (c.step !== undefined && c.step > MAX_EVENT_DURATION_MS)
          add(`${p}.config.step`, `${c.step} ms is too large: at most ${MAX_EVENT_DURATION_MS}`, n.id);
        if (c.startTime !== undefined && Math.abs(c.startTime) > MAX_TIMESTAMP_MS) {
          add(
            `${p}.config.startTime`,
            `${c.startTime} is outside the representable event-time range (±${MAX_TIMESTAMP_MS} ms)`,
            n.id,
          );
        } else if (c.count !== undefined) {
          const last = (c.startTime ?? 1_700_000_000_000) + (c.step ?? 10) * c.count;
          if (Math.abs(last) > MAX_TIMESTAMP_MS)
            add(
              `${p}.config.count`,
              `the last record's event time ${last} would be outside the representable range (±${MAX_TIMESTAMP_MS} ms)`,
              n.id,
            );
        }
        break;
      }
      case 'source.nexmark': {
        const c = n.config;
        span(`${p}.config.maxOutOfOrderness`, c.maxOutOfOrderness, n.id);
        int(`${p}.config.events`, c.events, Number.MAX_SAFE_INTEGER, n.id);
        int(`${p}.config.seed`, c.seed, Number.MAX_SAFE_INTEGER, n.id);
        if (c.baseTime !== undefined && Math.abs(c.baseTime) > MAX_TIMESTAMP_MS)
          add(
            `${p}.config.baseTime`,
            `${c.baseTime} is outside the representable event-time range (±${MAX_TIMESTAMP_MS} ms)`,
            n.id,
          );
        else if (c.events !== undefined) {
          // Event n's time: baseTime + n * 1000 / rate ms (10 000 events/s without a rate).
          const last =
            (c.baseTime ?? NEXMARK_DEFAULT_BASE_TIME) + (c.events * 1000) / (c.rate ?? NEXMARK_DEFAULT_EVENT_RATE);
          if (Math.abs(last) > MAX_TIMESTAMP_MS)
            add(
              `${p}.config.events`,
              `the last event's time ${last} would be outside the representable range (±${MAX_TIMESTAMP_MS} ms)`,
              n.id,
            );
        }
        break;
      }
      case 'window': {
        const w = n.config.window;
        const wp = `${p}.config.window`;
        if (w.kind === 'session') span(`${wp}.gap`, w.gap, n.id);
        else span(`${wp}.size`, w.size, n.id);
        if (w.kind === 'sliding') span(`${wp}.slide`, w.slide, n.id);
        span(`${p}.config.allowedLateness`, n.config.allowedLateness, n.id);
        break;
      }
      case 'sink.preview':
        int(`${p}.config.limit`, n.config.limit, 100_000, n.id);
        break;
      default:
        break;
    }
  });
}
