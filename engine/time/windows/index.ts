export { windowStart, maxTimestamp, intersects, isoTime, type TimeWindow } from './time-window.ts';
export {
  tumblingWindows,
  slidingWindows,
  sessionWindows,
  type WindowAssigner,
  type AlignedWindowAssigner,
  type SessionWindowAssigner,
} from './assigners.ts';
export { findMerge, type SessionLike, type MergeResult } from './session-merge.ts';
