/**
 * The relational nodes: `aggregate` (group aggregation, changelog out), `topn` (top N and
 * deduplication, changelog out), `join.interval` (interval join, append-only), `join.window`
 * (window join, append-only; tumbling, sliding or session windows) and `join` (regular join; outer
 * kinds emit a changelog). A window `topn` takes the same three window kinds.
 * Config errors are thrown as plain messages; the registry prefixes the node's JSON path.
 */
import type { JobNodeOf, NormalizedJob, WindowSpec } from '../../../../graph/types.ts';
import { inputIsChangelog } from '../../../../graph/changelog.ts';
import type { StreamOperator } from '../../../../contracts/operator.ts';
import { parseDuration } from '../../../../graph/units.ts';
import { parseSignedDuration } from '../../../../graph/signed-duration.ts';
import { parseKeyBy } from '../../../../sql/index.ts';
import { compileJoinSelect } from '../../../../sql/join-select.ts';
import { compileOrderBy } from '../../../../sql/order-by.ts';
import { compileWindowAggregates } from '../window/aggregates.ts';
import { AggregateOperator } from './aggregate-operator.ts';
import { TopNOperator } from './topn-operator.ts';
import { IntervalJoinOperator } from './interval-join-operator.ts';
import { RegularJoinOperator } from './regular-join-operator.ts';
import { WindowJoinOperator } from './window-join-operator.ts';
import {
  sessionWindows,
  slidingWindows,
  tumblingWindows,
  type AlignedWindowAssigner,
} from '../../../../time/windows/assigners.ts';
import { WindowTopNOperator } from './window-topn-operator.ts';
import { SessionWindowJoinOperator } from './session-join-operator.ts';
import { SessionTopNOperator } from './session-topn-operator.ts';
import { aggregate as aggregateNode } from '../../../../nodes/aggregate/definition.ts';
import { join as joinNode } from '../../../../nodes/join/definition.ts';
import { intervalJoin } from '../../../../nodes/join-interval/definition.ts';
import { windowJoin } from '../../../../nodes/join-window/definition.ts';
import { topn as topnNode } from '../../../../nodes/topn/definition.ts';

export function createAggregateOperator(
  node: JobNodeOf<typeof aggregateNode.type>,
  job: NormalizedJob,
): StreamOperator {
  const c = node.config;
  const changelog = inputIsChangelog(job, node.id);
  return new AggregateOperator({
    nodeId: node.id,
    key: parseKeyBy(c.keyBy),
    changelog,
    aggregates: compileWindowAggregates(c.aggregates, undefined, { changelog }),
    stateTtl: c.stateTtl === undefined ? null : parseDuration(c.stateTtl),
  });
}

export function createTopNOperator(node: JobNodeOf<typeof topnNode.type>): StreamOperator {
  const c = node.config;
  const plan = {
    nodeId: node.id,
    partition: parseKeyBy(c.partitionBy),
    order: compileOrderBy(c.orderBy),
    limit: c.limit,
  };
  if (!c.window) return new TopNOperator(plan);
  return c.window.kind === 'session'
    ? new SessionTopNOperator(plan, sessionWindows(parseDuration(c.window.gap)))
    : new WindowTopNOperator(plan, alignedAssigner(c.window));
}

function alignedAssigner(w: Exclude<WindowSpec, { kind: 'session' }>): AlignedWindowAssigner {
  return w.kind === 'tumbling'
    ? tumblingWindows(parseDuration(w.size))
    : slidingWindows(parseDuration(w.size), parseDuration(w.slide));
}

export function createIntervalJoinOperator(node: JobNodeOf<typeof intervalJoin.type>): StreamOperator {
  const c = node.config;
  return new IntervalJoinOperator({
    nodeId: node.id,
    leftKey: parseKeyBy(c.leftKey),
    rightKey: parseKeyBy(c.rightKey),
    lower: parseSignedDuration(c.lower),
    upper: parseSignedDuration(c.upper),
    select: compileJoinSelect(c.select),
  });
}

export function createRegularJoinOperator(node: JobNodeOf<typeof joinNode.type>): StreamOperator {
  const c = node.config;
  return new RegularJoinOperator({
    nodeId: node.id,
    kind: c.kind,
    leftKey: parseKeyBy(c.leftKey),
    rightKey: parseKeyBy(c.rightKey),
    select: compileJoinSelect(c.select),
    stateTtl: c.stateTtl === undefined ? null : parseDuration(c.stateTtl),
  });
}

export function createWindowJoinOperator(node: JobNodeOf<typeof windowJoin.type>): StreamOperator {
  const c = node.config;
  const sides = {
    nodeId: node.id,
    leftKey: parseKeyBy(c.leftKey),
    rightKey: parseKeyBy(c.rightKey),
    select: compileJoinSelect(c.select, { windowColumns: true }),
  };
  return c.window.kind === 'session'
    ? new SessionWindowJoinOperator({ ...sides, assigner: sessionWindows(parseDuration(c.window.gap)) })
    : new WindowJoinOperator({ ...sides, assigner: alignedAssigner(c.window) });
}

export { AggregateOperator, AGGREGATE_TABLE } from './aggregate-operator.ts';
export { RegularJoinOperator, REGULAR_JOIN_TABLE } from './regular-join-operator.ts';
export { WindowJoinOperator, WINDOW_JOIN_TABLE } from './window-join-operator.ts';
export { WindowTopNOperator, WINDOW_TOPN_TABLE } from './window-topn-operator.ts';
export { SessionWindowJoinOperator } from './session-join-operator.ts';
export { SessionTopNOperator } from './session-topn-operator.ts';
export { TopNOperator, TOPN_TABLE, RANK_COLUMN } from './topn-operator.ts';
export { IntervalJoinOperator, JOIN_TABLE } from './interval-join-operator.ts';
