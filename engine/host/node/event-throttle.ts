/**
 * Batches and throttles one run's events so a UI never drowns: at most one delivery per
 * `interval` ms (default 250: four updates a second).
 *
 * Rules:
 * - Status, restart, checkpoint and log events are all kept, in order.
 * - Metrics are coalesced: only the newest snapshot survives, and it takes the position of the
 *   newest metrics event (so it is never reordered before a status it followed).
 * - Preview records are merged per target and capped to the newest `previewLimit`.
 * - A terminal status (`finished`, `stopped`, `failed`, `canceled`) flushes at once: the final
 *   state is never held back by the throttle.
 * - With `firstMetricsAtOnce`, the run's first metrics flush at once too (the app shows the first
 *   records as soon as the task reports them); later ones keep the interval.
 */
import type { HostEvent, JobStatus } from '../common/api.ts';

const TERMINAL: ReadonlySet<JobStatus> = new Set(['finished', 'stopped', 'failed', 'canceled']);

export interface EventThrottle {
  push(event: HostEvent): void;
  /** Deliver everything queued now. */
  flush(): void;
  /** Flush and stop the timer. */
  close(): void;
}

export function createEventThrottle(
  deliver: (events: HostEvent[]) => void,
  opts: { interval?: number; previewLimit?: number; firstMetricsAtOnce?: boolean } = {},
): EventThrottle {
  const interval = opts.interval ?? 250;
  const previewLimit = opts.previewLimit ?? 200;
  let queue: Array<HostEvent | null> = [];
  let metricsAt = -1;
  const previewAt = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = 0;
  let closed = false;
  let metricsSeen = false;

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    lastFlush = Date.now();
    const events = queue.filter((e): e is HostEvent => e !== null);
    queue = [];
    metricsAt = -1;
    previewAt.clear();
    if (events.length) deliver(events);
  }

  function schedule(): void {
    if (timer || closed) return;
    const wait = Math.max(0, lastFlush + interval - Date.now());
    timer = setTimeout(flush, wait);
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    push(event) {
      if (closed) {
        deliver([event]);
        return;
      }
      if (event.type === 'metrics') {
        if (metricsAt >= 0) queue[metricsAt] = null;
        metricsAt = queue.push(event) - 1;
      } else if (event.type === 'preview') {
        const at = previewAt.get(event.target);
        const prev = at === undefined ? null : queue[at];
        let records = event.records;
        if (prev && prev.type === 'preview') {
          records = prev.records.concat(event.records);
          queue[at!] = null;
        }
        if (records.length > previewLimit) records = records.slice(records.length - previewLimit);
        previewAt.set(event.target, queue.push({ ...event, records }) - 1);
      } else {
        queue.push(event);
      }
      const firstMetrics = event.type === 'metrics' && !metricsSeen && opts.firstMetricsAtOnce === true;
      if (event.type === 'metrics') metricsSeen = true;
      if ((event.type === 'job.status' && TERMINAL.has(event.status)) || firstMetrics) flush();
      else schedule();
    },
    flush,
    close() {
      flush();
      closed = true;
    },
  };
}
