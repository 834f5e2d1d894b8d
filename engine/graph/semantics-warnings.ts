/**
 * Warnings where Weir computes differently from Flink on purpose (docs/sql-semantics.md), shown
 * by the designer beside the node and repeated by the Flink SQL export in its script header.
 *
 * - SUM / AVG of a DOUBLE: Weir adds exactly (Shewchuk partials, engine/sql/exact-sum.ts), so the
 *   result is the same whatever order parallel channels or a replay deliver the values in; Flink adds
 *   doubles in arrival order, and the last digits may differ.
 */
import type { JobProblem, NormalizedJob } from './types.ts';
import { inputColumnTypes } from './column-types.ts';
import { compileAggregates } from '../sql/index.ts';
import { definitionOf } from './node-types.ts';

export const EXACT_DOUBLE_SUM_NOTE =
  'Weir adds DOUBLE values exactly, so the result does not depend on arrival order; ' +
  'Flink adds them in arrival order, so the last digits may differ';

export function semanticsWarnings(job: NormalizedJob): JobProblem[] {
  const out: JobProblem[] = [];
  job.nodes.forEach((node, i) => {
    const key = definitionOf(node).doubleSums;
    const aggregates = key && (node.config as Record<string, unknown>)[key];
    if (typeof aggregates !== 'string') return;
    let calls;
    try {
      calls = compileAggregates(aggregates, inputColumnTypes(job, node.id));
    } catch {
      return;
    }
    for (const c of calls) {
      if ((c.fn === 'SUM' || c.fn === 'AVG') && c.resultType.type === 'DOUBLE') {
        out.push({
          path: `nodes[${i}].config.${key}`,
          nodeId: node.id,
          severity: 'warning',
          message: `${c.fn}(${c.argText}) AS ${c.alias} sums a DOUBLE: ${EXACT_DOUBLE_SUM_NOTE}`,
        });
      }
    }
  });
  return out;
}
