/**
 * Where a new node goes when the place asked for is taken (the keyboard's quick add always asks for
 * the same place): the first spot down the column, a node's height apart, that no node's top-left
 * corner is near. Plain TS.
 */
import type { JobDocument } from '../../../engine/graph/types.ts';

/** Two nodes whose corners are closer than this overlap visibly (a node is ~220 wide, 60-100 tall with its problem line). */
const NEAR_X = 180;
const NEAR_Y = 100;
const STEP_Y = 120;

export function freeSpot(job: JobDocument, at: { x: number; y: number }): { x: number; y: number } {
  const taken = job.nodes.flatMap((n) => (n?.position ? [n.position] : []));
  let y = at.y;
  for (let i = 0; i < 200; i++, y += STEP_Y) {
    if (!taken.some((p) => Math.abs(p.x - at.x) < NEAR_X && Math.abs(p.y - y) < NEAR_Y)) return { x: at.x, y };
  }
  return at;
}
