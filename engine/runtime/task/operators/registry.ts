/**
 * Node type -> StreamOperator for every non-source node. Config errors are reported with the
 * node's JSON path (`nodes[2].config.where: ...`), never as a stack trace.
 */
import type { JobNode, JobNodeOf, NodeType, NormalizedJob } from '../../../graph/types.ts';
import type { StreamOperator } from '../../../contracts/operator.ts';
import { nodeDefinition } from '../../../graph/node-types.ts';
import type { OperatorServices } from '../../../contracts/operator-services.ts';
import { FilterOperator } from './filter.ts';
import { MapOperator } from './map.ts';
import { UnionOperator } from './union.ts';
import { createWindowOperator } from './window/index.ts';
import { nameExpressionFailures } from './expression-failures.ts';
import { operatorInputTypes } from '../../common/input-types.ts';
import {
  createAggregateOperator,
  createIntervalJoinOperator,
  createRegularJoinOperator,
  createTopNOperator,
  createWindowJoinOperator,
} from './relational/index.ts';
import { FileSinkOperator } from '../../../connectors/file-sink.ts';
import { PreviewSinkOperator } from '../../../connectors/preview-sink.ts';
import { BlackholeSinkOperator } from '../../../connectors/blackhole-sink.ts';
import { PostgresSinkOperator } from '../../../connectors/postgres/sink-operator.ts';
import { sinkInputColumns } from '../../../connectors/postgres/sink-columns.ts';
import { KafkaSinkOperator } from '../../../connectors/kafka/sink-operator.ts';
import { intervalJoin } from '../../../nodes/join-interval/definition.ts';
import { windowJoin } from '../../../nodes/join-window/definition.ts';
import { fileSink } from '../../../nodes/sink-file/definition.ts';
import { postgresSink } from '../../../nodes/sink-postgres/definition.ts';
import { kafkaSink } from '../../../nodes/sink-kafka/definition.ts';
import { previewSink } from '../../../nodes/sink-preview/definition.ts';
import { blackholeSink } from '../../../nodes/sink-blackhole/definition.ts';
import { filter as filterNode } from '../../../nodes/filter/definition.ts';
import { map as mapNode } from '../../../nodes/map/definition.ts';
import { union as unionNode } from '../../../nodes/union/definition.ts';
import { window as windowNode } from '../../../nodes/window/definition.ts';
import { join as joinNode } from '../../../nodes/join/definition.ts';
import { aggregate as aggregateNode } from '../../../nodes/aggregate/definition.ts';
import { topn as topnNode } from '../../../nodes/topn/definition.ts';

export class OperatorConfigError extends Error {
  override name = 'OperatorConfigError';
}

/** What a factory gets besides the node: the job, services, and a config path for its messages. */
interface FactoryContext {
  job: NormalizedJob;
  services: OperatorServices;
  index: number;
  /** `nodes[i].config.<field>`. */
  at: (field: string) => string;
  /** Runs `f`, reporting a config error at `field` (unless it already names its path). */
  wrap: <R>(field: string, f: () => R) => R;
}
type Factory<T extends NodeType> = (node: JobNodeOf<T>, c: FactoryContext) => StreamOperator;

/** One factory per operator type; sources have none (their readers: connectors/sources.ts). */
const FACTORIES: { [T in NodeType]?: Factory<T> } = {
  [filterNode.type]: (node, { job, at, wrap }) =>
    nameExpressionFailures(
      wrap('where', () => new FilterOperator(node.config.where, operatorInputTypes(job, node.id))),
      at('where'),
    ),
  [mapNode.type]: (node, { job, at, wrap }) =>
    nameExpressionFailures(
      wrap('select', () => new MapOperator(node.config.select, operatorInputTypes(job, node.id))),
      at('select'),
    ),
  [unionNode.type]: () => new UnionOperator(),
  [windowNode.type]: (node, { job, at, wrap }) =>
    nameExpressionFailures(
      wrap('window', () => createWindowOperator(node, job)),
      at('aggregates'),
    ),
  [aggregateNode.type]: (node, { job, wrap }) => wrap('aggregates', () => createAggregateOperator(node, job)),
  [topnNode.type]: (node, { wrap }) => wrap('orderBy', () => createTopNOperator(node)),
  [intervalJoin.type]: (node, { wrap }) => wrap('select', () => createIntervalJoinOperator(node)),
  [windowJoin.type]: (node, { wrap }) => wrap('window', () => createWindowJoinOperator(node)),
  [joinNode.type]: (node, { wrap }) => wrap('select', () => createRegularJoinOperator(node)),
  [fileSink.type]: (node, { services }) => new FileSinkOperator(node.config, services),
  [postgresSink.type]: (node, { job, services, index }) =>
    new PostgresSinkOperator(
      node.config,
      { jobName: job.name, nodeId: node.id, at: `nodes[${index}].config`, columns: sinkInputColumns(job, node.id) },
      services,
    ),
  [kafkaSink.type]: (node, { job, services, index }) =>
    new KafkaSinkOperator(node.config, { jobName: job.name, nodeId: node.id, at: `nodes[${index}].config` }, services),
  [previewSink.type]: (node, { services }) => new PreviewSinkOperator(node.config, services),
  [blackholeSink.type]: () => new BlackholeSinkOperator(),
};

/** Whether the runtime has an operator for `type` (a source type has none). */
export function hasOperatorFactory(type: NodeType): boolean {
  return FACTORIES[type] !== undefined;
}

export function createOperator(node: JobNode, job: NormalizedJob, services: OperatorServices): StreamOperator {
  const index = job.nodes.findIndex((n) => n.id === node.id);
  const at = (field: string) => `nodes[${index}].config.${field}`;
  const wrap = <T>(field: string, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      const msg = (e as Error).message;
      throw new OperatorConfigError(msg.startsWith('nodes[') ? msg : `${at(field)}: ${msg}`);
    }
  };
  const factory = FACTORIES[node.type] as Factory<JobNode['type']> | undefined;
  if (!factory) throw new OperatorConfigError(`nodes[${index}]: '${node.type}' is not an operator`);
  return factory(node, { job, services, index, at, wrap });
}

/** Operators that keep keyed state (and therefore get a state backend). */
export function needsKeyedState(node: JobNode): boolean {
  return nodeDefinition(node.type).keyedState ?? false;
}
