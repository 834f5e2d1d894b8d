/**
 * Where the canvas differs from the job that is running (as Node-RED marks undeployed changes).
 * A running job never changes under the user: edits wait for the next run, and this says which.
 * Only what the engine runs counts: node type, config and parallelism, the edges and the
 * settings; names and positions do not (nor groups and notes, which the engine ignores).
 * Plain TypeScript; unit-testable.
 */
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';
import { edgeKey } from './ops.ts';

export type NodeDrift = 'added' | 'changed';

export interface Drift {
  nodes: ReadonlyMap<string, NodeDrift>;
  /** Names of nodes in the running job that are no longer on the canvas. */
  removed: string[];
  edgesAdded: number;
  edgesRemoved: number;
  settings: boolean;
  /** Anything at all differs. */
  any: boolean;
}

export const NO_DRIFT: Drift = {
  nodes: new Map(),
  removed: [],
  edgesAdded: 0,
  edgesRemoved: 0,
  settings: false,
  any: false,
};

function runnable(n: JobNode): string {
  return JSON.stringify([n.type, n.config, (n as { parallelism?: number }).parallelism ?? null]);
}

const cache = new WeakMap<JobDocument, WeakMap<JobDocument, Drift>>();

/** The difference between the running job and the canvas; memoized on both documents' identity. */
export function jobDrift(running: JobDocument, canvas: JobDocument): Drift {
  let inner = cache.get(running);
  if (!inner) cache.set(running, (inner = new WeakMap()));
  const hit = inner.get(canvas);
  if (hit) return hit;
  let d: Drift = NO_DRIFT;
  if (running !== canvas) {
    const before = new Map(running.nodes.map((n) => [n.id, n]));
    const nodes = new Map<string, NodeDrift>();
    for (const n of canvas.nodes) {
      const old = before.get(n.id);
      if (!old) nodes.set(n.id, 'added');
      else if (old !== n && runnable(old) !== runnable(n)) nodes.set(n.id, 'changed');
    }
    const now = new Set(canvas.nodes.map((n) => n.id));
    const removed = running.nodes.filter((n) => !now.has(n.id)).map((n) => n.name || n.id);
    const eBefore = new Set(running.edges.map(edgeKey));
    const eNow = new Set(canvas.edges.map(edgeKey));
    const edgesAdded = [...eNow].filter((k) => !eBefore.has(k)).length;
    const edgesRemoved = [...eBefore].filter((k) => !eNow.has(k)).length;
    const settings =
      running.settings !== canvas.settings &&
      JSON.stringify(running.settings ?? {}) !== JSON.stringify(canvas.settings ?? {});
    const any = nodes.size > 0 || removed.length > 0 || edgesAdded > 0 || edgesRemoved > 0 || settings;
    d = any ? { nodes, removed, edgesAdded, edgesRemoved, settings, any } : NO_DRIFT;
  }
  inner.set(canvas, d);
  return d;
}

/** One line for the banner: `2 nodes changed, 1 removed (Preview), 1 connection added`. */
export function describeDrift(d: Drift): string {
  const parts: string[] = [];
  const changed = [...d.nodes.values()].filter((x) => x === 'changed').length;
  const added = d.nodes.size - changed;
  const n = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
  if (changed) parts.push(`${n(changed, 'node')} changed`);
  if (added) parts.push(`${n(added, 'node')} added`);
  if (d.removed.length) parts.push(`${n(d.removed.length, 'node')} removed (${d.removed.join(', ')})`);
  if (d.edgesAdded) parts.push(`${n(d.edgesAdded, 'connection')} added`);
  if (d.edgesRemoved) parts.push(`${n(d.edgesRemoved, 'connection')} removed`);
  if (d.settings) parts.push('job settings changed');
  return parts.join(', ');
}
