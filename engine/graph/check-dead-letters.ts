/**
 * Rules of the `bad` port (dead letters) that the port table cannot express:
 * - an edge from a file source's `bad` port needs `onBadRecord: 'dead-letter'` on that source, and
 *   goes to a sink (a dead letter has no event time to window, only file, line, reason, text);
 * - `onBadRecord: 'dead-letter'` needs at least one such edge, or the dead letters would vanish.
 * Browser-safe.
 */
import type { JobDocument, JobProblem } from './types.ts';
import { isSink } from './ports.ts';
import { fileSource } from '../nodes/source-file/definition.ts';

export function checkDeadLetters(doc: JobDocument, problems: JobProblem[]): void {
  const byId = new Map(doc.nodes.map((n, i) => [n.id, { n, i }]));
  doc.edges.forEach((e, i) => {
    if (e.fromPort !== 'bad') return;
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (!from || from.n.type !== fileSource.type) return; // the port rules already report it
    if (from.n.config.onBadRecord !== 'dead-letter') {
      problems.push({
        path: `edges[${i}].fromPort`,
        nodeId: from.n.id,
        severity: 'error',
        message: `source '${from.n.id}' sends nothing on 'bad' unless nodes[${from.i}].config.onBadRecord is 'dead-letter'`,
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
    if (n.type !== fileSource.type || n.config.onBadRecord !== 'dead-letter') return;
    if (!doc.edges.some((e) => e.from === n.id && e.fromPort === 'bad')) {
      problems.push({
        path: `nodes[${i}].config.onBadRecord`,
        nodeId: n.id,
        severity: 'error',
        message: `'dead-letter' needs an edge from this source's 'bad' port to a sink`,
      });
    }
  });
}
