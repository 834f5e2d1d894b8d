/**
 * Whether a connection may be drawn, and if not, why, in words shown next to the cursor while
 * dragging. The rules are the engine's own (`engine/graph/ports.ts` `canConnect`), so the designer
 * refuses exactly what the validator would reject.
 */
import type { JobDocument, JobEdge } from '../../../engine/graph/types.ts';
import { canConnect, type OutputPort } from '../../../engine/graph/ports.ts';

export interface ConnectionRequest {
  from: string;
  to: string;
  fromPort?: string | null;
  toPort?: string | null;
}

export type ConnectionVerdict = { ok: true; edge: JobEdge } | { ok: false; reason: string };

export function checkConnection(job: JobDocument, req: ConnectionRequest): ConnectionVerdict {
  const port = (req.fromPort ?? 'out') as OutputPort;
  // Two-input nodes have handles `left` and `right`; every other node's input handle is `in`.
  const toPort = req.toPort === 'left' || req.toPort === 'right' ? req.toPort : undefined;
  let r: ReturnType<typeof canConnect>;
  try {
    r = canConnect(job, req.from, port, req.to, toPort);
  } catch {
    // Only a node of a type this version does not know gets here (a hand-edited file).
    return { ok: false, reason: 'one of these nodes has an unknown type' };
  }
  if (!r.ok) return r;
  const edge: JobEdge =
    port === 'out' ? { from: req.from, to: req.to } : { from: req.from, to: req.to, fromPort: port };
  if (toPort) edge.toPort = toPort;
  return { ok: true, edge };
}
