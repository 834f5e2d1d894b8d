/**
 * Whether a connection may be drawn, and if not, why, in words shown next to the cursor while
 * dragging. The rules are the engine's own (`engine/graph/ports.ts` `canConnect`), so the designer
 * refuses exactly what the validator would reject.
 */
import type { JobDocument, JobEdge } from '../../../engine/graph/types.ts';
import { canConnect, isSink, type OutputPort } from '../../../engine/graph/ports.ts';
import { deadLetterSetting } from '../../../engine/graph/check-dead-letters.ts';
import { nodeDefinition } from '../../../engine/graph/node-types.ts';

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
  if (port === 'bad') {
    // The port table allows `bad` whatever the config; `check-dead-letters.ts` adds these two rules.
    const src = job.nodes.find((n) => n.id === req.from);
    const dst = job.nodes.find((n) => n.id === req.to);
    const setting = src && deadLetterSetting(src);
    if (src && setting && !setting.on) {
      const field = nodeDefinition(src.type).fields.find((f) => 'path' in f && f.path === setting.key);
      const label = field && 'label' in field ? field.label : setting.key;
      return {
        ok: false,
        reason: `'bad' carries dead letters only when '${label.toLowerCase()}' is '${setting.value}'`,
      };
    }
    if (dst && !isSink(dst.type)) {
      return { ok: false, reason: `dead letters (port 'bad') can only go to a sink, not to a ${dst.type}` };
    }
  }
  const edge: JobEdge =
    port === 'out' ? { from: req.from, to: req.to } : { from: req.from, to: req.to, fromPort: port };
  if (toPort) edge.toPort = toPort;
  return { ok: true, edge };
}
