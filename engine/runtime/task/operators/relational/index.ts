/**
 * The relational nodes: `aggregate` (group aggregation, changelog out), `topn` (top N and
 * deduplication, changelog out), `join.interval` (interval join, append-only), `join.window`
 * (window join, append-only) and `join` (regular join; outer kinds emit a changelog).
 * Config errors are thrown as plain messages; the registry prefixes the node's JSON path.
 */
import type { JobNodeOf, WindowSpec } from '../../../../graph/types.ts';
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
import { slidingWindows, tumblingWindows, type AlignedWindowAssigner } from '../../../../time/windows/assigners.ts';
import { WindowTopNOperator } from './window-topn-operator.ts';

export function createAggregateOperator(node: JobNodeOf<'aggregate'>): StreamOperator {
  const c = node.config;
  return new AggregateOperator({
    nodeId: node.id,
    key: parseKeyBy(c.keyBy),
    aggregates: compileWindowAggregates(c.aggregates),
    stateTtl: c.stateTtl === undefined ? null : parseDuration(c.stateTtl),
  });
}

export function createTopNOperator(node: JobNodeOf<'topn'>): StreamOperator {
  const c = node.config;
  const plan = {
    nodeId: node.id,
    partition: parseKeyBy(c.partitionBy),
    order: compileOrderBy(c.orderBy),
    limit: c.limit,
  };
  return c.window ? new WindowTopNOperator(plan, alignedAssigner(c.window, 'topn')) : new TopNOperator(plan);
}

function alignedAssigner(w: WindowSpec, what: string): AlignedWindowAssigner {
  if (w.kind === 'session')
    throw new Error(`${what} supports tumbling and sliding windows; session windows are not supported yet`);
  return w.kind === 'tumbling'
    ? tumblingWindows(parseDuration(w.size))
    : slidingWindows(parseDuration(w.size), parseDuration(w.slide));
}

export function createIntervalJoinOperator(node: JobNodeOf<'join.interval'>): StreamOperator {
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

export function createRegularJoinOperator(node: JobNodeOf<'join'>): StreamOperator {
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

export function createWindowJoinOperator(node: JobNodeOf<'join.window'>): StreamOperator {
  const c = node.config;
  const assigner = alignedAssigner(c.window, 'join.window');
  return new WindowJoinOperator({
    nodeId: node.id,
    leftKey: parseKeyBy(c.leftKey),
    rightKey: parseKeyBy(c.rightKey),
    assigner,
    select: compileJoinSelect(c.select, { windowColumns: true }),
  });
}

export { AggregateOperator, AGGREGATE_TABLE } from './aggregate-operator.ts';
export { RegularJoinOperator, REGULAR_JOIN_TABLE } from './regular-join-operator.ts';
export { WindowJoinOperator, WINDOW_JOIN_TABLE } from './window-join-operator.ts';
export { WindowTopNOperator, WINDOW_TOPN_TABLE } from './window-topn-operator.ts';
export { TopNOperator, TOPN_TABLE, RANK_COLUMN } from './topn-operator.ts';
export { IntervalJoinOperator, JOIN_TABLE } from './interval-join-operator.ts';
