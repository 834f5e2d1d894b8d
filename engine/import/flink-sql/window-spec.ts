/**
 * A window function's kind and intervals (TUMBLE/HOP/SESSION, as a table function or a group
 * window) as Weir's window spec. HOP's intervals are (slide, size); CUMULATE has no Weir window.
 */
import type { WindowSpec } from '../../graph/types.ts';
import { weirDuration } from './values.ts';

export function windowSpec(fn: string, iv: number[]): WindowSpec | null {
  if (fn === 'TUMBLE' && iv.length >= 1) return { kind: 'tumbling', size: weirDuration(iv[0]) };
  if (fn === 'HOP' && iv.length >= 2) return { kind: 'sliding', size: weirDuration(iv[1]), slide: weirDuration(iv[0]) };
  if (fn === 'SESSION' && iv.length >= 1) return { kind: 'session', gap: weirDuration(iv[iv.length - 1]) };
  return null;
}

/** Two specs are the same window (a window join needs one window on both sides). */
export function sameWindow(a: WindowSpec, b: WindowSpec): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
