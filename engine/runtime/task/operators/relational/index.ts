/**
 * The relational nodes: `aggregate` (group aggregation, changelog out), `topn` (top N and
 * deduplication, changelog out) and `join.interval` (interval join of two inputs, append-only).
 * Config errors are thrown as plain messages; the registry prefixes the node's JSON path.
 */
import type { JobNodeOf } from '../../../../graph/types.ts';
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
  return new TopNOperator({ nodeId: node.id, partition: parseKeyBy(c.partitionBy), order: compileOrderBy(c.orderBy), limit: c.limit });
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

export { AggregateOperator, AGGREGATE_TABLE } from './aggregate-operator.ts';
export { TopNOperator, TOPN_TABLE, RANK_COLUMN } from './topn-operator.ts';
export { IntervalJoinOperator, JOIN_TABLE } from './interval-join-operator.ts';
