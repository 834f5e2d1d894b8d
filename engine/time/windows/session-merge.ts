/**
 * Session merging as Flink's `MergingWindowSet.addWindow` with `TimeWindow.mergeWindows`: a new
 * window `[ts, ts + gap)` absorbs every existing session it intersects (inclusive bounds, so touching
 * sessions merge), and the result covers them all. A record that bridges two sessions merges both.
 *
 * Sessions of one key never overlap, so they are kept sorted by start; the overlapping ones form a
 * contiguous run, which `findMerge` returns as an index range.
 */
import { intersects } from './time-window.ts';

export interface SessionLike {
  start: number;
  end: number;
}

export interface MergeResult {
  /** First index of the run of intersecting sessions (insert position when `count` is 0). */
  from: number;
  /** Number of existing sessions absorbed. */
  count: number;
  start: number;
  end: number;
}

/** `sessions` sorted by start and pairwise non-intersecting. */
export function findMerge(sessions: readonly SessionLike[], start: number, end: number): MergeResult {
  let from = 0;
  // Skip sessions entirely before the new window (few per key, a linear walk beats bisecting).
  while (from < sessions.length && sessions[from].end < start) from++;
  let to = from;
  let mergedStart = start;
  let mergedEnd = end;
  while (to < sessions.length && intersects(sessions[to].start, sessions[to].end, start, end)) {
    if (sessions[to].start < mergedStart) mergedStart = sessions[to].start;
    if (sessions[to].end > mergedEnd) mergedEnd = sessions[to].end;
    to++;
  }
  return { from, count: to - from, start: mergedStart, end: mergedEnd };
}
