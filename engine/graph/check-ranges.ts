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
 * Node types state their own bounds in their definitions (`checkRanges`). Browser-safe.
 */
import type { JobDocument, JobProblem, DurationInput } from './types.ts';
import { checkDuration, checkSize } from './units.ts';
import { MAX_EVENT_DURATION_MS, MAX_TIMER_MS } from '../nodes/ranges.ts';
import { definitionOf } from './node-types.ts';

export { MAX_TIMER_MS, MAX_EVENT_DURATION_MS, MAX_TIMESTAMP_MS } from '../nodes/ranges.ts';
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
    // Each type's own bounds are its definition's `checkRanges`.
    definitionOf(n).checkRanges?.(n.config, {
      span: (field, v) => span(`${p}.config.${field}`, v, n.id),
      timer: (field, v) => timer(`${p}.config.${field}`, v, n.id),
      int: (field, v, max) => int(`${p}.config.${field}`, v, max, n.id),
      error: (field, message) => add(`${p}.config.${field}`, message, n.id),
    });
  });
}
