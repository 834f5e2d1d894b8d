/**
 * One-line config summaries shown on canvas nodes, e.g. `tumbling 10s · COUNT(*), SUM(amount) by user`:
 * each type's `palette.summary` (engine/nodes/<type>/definition.ts). Pure and total: any config,
 * even half-filled or wrong, gives a string and never throws.
 */
import type { JobNode } from '../../../engine/graph/types.ts';
import { isNodeType, nodeDefinition } from '../../../engine/graph/node-types.ts';

export function summarize(node: JobNode): string {
  if (!isNodeType(node.type)) return '';
  const summary = nodeDefinition(node.type).palette.summary as ((config: unknown) => string) | undefined;
  return summary ? summary(node.config ?? {}) : '';
}
