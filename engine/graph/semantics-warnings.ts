/**
 * Warnings where Weir computes differently from Flink on purpose (docs/sql-semantics.md), shown
 * by the designer beside the node and repeated by the Flink SQL export in its script header.
 *
 * - SUM / AVG of a DOUBLE: Weir adds exactly (Shewchuk partials, engine/sql/exact-sum.ts), so the
 *   result is the same whatever order parallel channels or a replay deliver the values in; Flink adds
 *   doubles in arrival order, and the last digits may differ.
 */
import type { JobProblem, NormalizedJob } from './types.ts';
import { columnTyper, type ColumnTypeOptions } from './column-types.ts';
import { compileAggregates } from '../sql/index.ts';
import { definitionOf } from './node-types.ts';
import { orderedTypesKey } from './validation-cache.ts';

export const EXACT_DOUBLE_SUM_NOTE =
  'Weir adds DOUBLE values exactly, so the result does not depend on arrival order; ' +
  'Flink adds them in arrival order, so the last digits may differ';

export function semanticsWarnings(job: NormalizedJob, opts: ColumnTypeOptions = {}): JobProblem[] {
  const out: JobProblem[] = [];
  // One typer for the job: a typer per node typed each node's whole upstream again.
  let typer: ReturnType<typeof columnTyper> | null = null;
  job.nodes.forEach((node, i) => {
    const key = definitionOf(node).doubleSums;
    const aggregates = key && (node.config as Record<string, unknown>)[key];
    if (typeof aggregates !== 'string') return;
    typer ??= columnTyper(job, opts);
    const input = typer.inputOf(node.id);
    const cacheKey = opts.cache
      ? `${node.id}\u0000${i}\u0000${key}\u0000${aggregates}\u0000${orderedTypesKey(input)}`
      : null;
    const hit = cacheKey === null ? undefined : opts.cache!.warnings.get(cacheKey);
    if (hit) {
      out.push(...hit);
      return;
    }
    const mine: JobProblem[] = [];
    let calls: ReturnType<typeof compileAggregates> = [];
    try {
      calls = compileAggregates(aggregates, input);
    } catch {
      // an aggregate list that does not compile: validation reports it, no warning here
    }
    for (const c of calls) {
      if ((c.fn === 'SUM' || c.fn === 'AVG') && c.resultType.type === 'DOUBLE') {
        mine.push({
          path: `nodes[${i}].config.${key}`,
          nodeId: node.id,
          severity: 'warning',
          message: `${c.fn}(${c.argText}) AS ${c.alias} sums a DOUBLE: ${EXACT_DOUBLE_SUM_NOTE}`,
        });
      }
    }
    if (cacheKey !== null) opts.cache!.warnings.set(cacheKey, mine);
    out.push(...mine);
  });
  return out;
}
