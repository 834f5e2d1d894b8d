/**
 * Each node's own static checks, as its definition states them (`check`, engine/nodes/checks.ts):
 * e.g. a PostgreSQL node's URL and table name, an upsert sink's key against its input's columns.
 * Runs after the column checks, whose results it offers. Browser-safe.
 */
import type { JobDocument, JobProblem } from './types.ts';
import type { NodeColumns } from './check-columns.ts';
import { definitionOf } from './node-types.ts';

export function checkNodeConfigs(doc: JobDocument, columns: NodeColumns, problems: JobProblem[]): void {
  doc.nodes.forEach((n, i) => {
    const check = definitionOf(n).check;
    if (!check) return;
    check(n.config, {
      error: (field, message) =>
        problems.push({ path: `nodes[${i}].config.${field}`, message, severity: 'error', nodeId: n.id }),
      inputColumns: () => {
        const known = new Set<string>();
        for (const e of doc.edges) {
          if (e.to !== n.id) continue;
          const cols = e.fromPort === 'bad' ? null : columns.get(e.from)?.[e.fromPort === 'late' ? 'late' : 'out'];
          if (!cols || cols.includes('*')) return null;
          for (const col of cols) known.add(col);
        }
        return known;
      },
    });
  });
}
