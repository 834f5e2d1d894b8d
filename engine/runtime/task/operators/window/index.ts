/**
 * The `window` node: tumbling, sliding and session windows, keyed or global, with incremental
 * COUNT/SUM/MIN/MAX/AVG, allowed lateness and a `late` port (Flink's WindowOperator semantics).
 */
import type { JobNodeOf, NormalizedJob } from '../../../../graph/types.ts';
import type { StreamOperator } from '../../../../contracts/operator.ts';
import { readWindowPlan } from './config.ts';
import { WindowOperator } from './window-operator.ts';
import { window as windowNode } from '../../../../nodes/window/definition.ts';

export function createWindowOperator(node: JobNodeOf<typeof windowNode.type>, job: NormalizedJob): StreamOperator {
  return new WindowOperator(readWindowPlan(node, job));
}

export { WindowOperator, WINDOW_TABLE } from './window-operator.ts';
export { WindowConfigError, readWindowPlan, type WindowPlan } from './config.ts';
