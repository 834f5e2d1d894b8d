/**
 * Rules of the `bad` port (dead letters) that the port table cannot express:
 * - an edge from a node's `bad` port needs its dead-letter setting on (a file source's
 *   `onBadRecord: 'dead-letter'`, its definition's `deadLetters`), and goes to a sink (a dead
 *   letter has no event time to window, only file, line, reason, text);
 * - that setting needs at least one such edge, or the dead letters would vanish.
 * Browser-safe.
 */
import type { JobDocument, JobNode, JobProblem } from './types.ts';
import { isSink } from './ports.ts';
import { isNodeType, nodeDefinition } from './node-types.ts';

/** The config setting that sends a node's bad records to its `bad` port, and whether it is on. */
export function deadLetterSetting(node: JobNode): { key: string; value: string; on: boolean } | null {
  const spec = isNodeType(node.type) ? nodeDefinition(node.type).deadLetters : undefined;
  if (!spec) return null;
  return { ...spec, on: (node.config as Record<string, unknown>)[spec.key] === spec.value };
}

export function checkDeadLetters(doc: JobDocument, problems: JobProblem[]): void {
  const byId = new Map(doc.nodes.map((n, i) => [n.id, { n, i }]));
  doc.edges.forEach((e, i) => {
    if (e.fromPort !== 'bad') return;
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    const setting = from && deadLetterSetting(from.n);
    if (!from || !setting) return; // the port rules already report it
    if (!setting.on) {
      problems.push({
        path: `edges[${i}].fromPort`,
        nodeId: from.n.id,
        severity: 'error',
        message: `source '${from.n.id}' sends nothing on 'bad' unless nodes[${from.i}].config.${setting.key} is '${setting.value}'`,
      });
    }
    if (to && !isSink(to.n.type)) {
      problems.push({
        path: `edges[${i}].to`,
        nodeId: to.n.id,
        severity: 'error',
        message: `dead letters from '${from.n.id}' (port 'bad') can only go to a sink, not to a ${to.n.type}`,
      });
    }
  });
  doc.nodes.forEach((n, i) => {
    const setting = deadLetterSetting(n);
    if (!setting?.on) return;
    if (!doc.edges.some((e) => e.from === n.id && e.fromPort === 'bad')) {
      problems.push({
        path: `nodes[${i}].config.${setting.key}`,
        nodeId: n.id,
        severity: 'error',
        message: `'${setting.value}' needs an edge from this source's 'bad' port to a sink`,
      });
    }
  });
}
