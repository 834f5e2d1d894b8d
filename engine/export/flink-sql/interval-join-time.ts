/**
 * Which event time an exported interval join passes on. Weir's result time is the larger of the
 * two rows' times; Flink keeps both rows' time attributes as columns. When the bounds order the two
 * (`lower >= 0`: L.ts >= R.ts, so the result time is always L's; `upper <= 0`: always R's), that
 * side's time attribute is Weir's result time, and a window or timed join downstream can use it
 * (Nexmark q4: bids after their auction, then a session window). Only then is it passed on, so
 * scripts without a timed consumer stay as they were.
 */
import type { ExportContext, ExportNode } from './context.ts';
import { definitionOf } from '../../graph/node-types.ts';

/** Does `id`'s output reach a node that needs event time, through filter/map/union only? */
export function feedsTimedNode(ctx: ExportContext, id: string, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  for (const e of ctx.job.edges) {
    if (e.from !== id) continue;
    const to: ExportNode | undefined = ctx.node(e.to);
    if (!to) continue;
    const eventTime = definitionOf(to).eventTime;
    if (eventTime?.needs?.(to.config)) return true;
    if (eventTime?.passes && feedsTimedNode(ctx, to.id, seen)) return true;
  }
  return false;
}

/** 'L' or 'R': the side whose time is always the result time, or null when either may be. */
export function resultTimeSide(lower: number, upper: number): 'L' | 'R' | null {
  if (lower >= 0) return 'L';
  if (upper <= 0) return 'R';
  return null;
}
