/**
 * Node type -> StreamOperator for every non-source node. Config errors are reported with the
 * node's JSON path (`nodes[2].config.where: ...`), never as a stack trace.
 */
import type { JobNode, NormalizedJob } from '../../../graph/types.ts';
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
import { PostgresSinkOperator } from '../../../connectors/postgres/sink-operator.ts';
import { sinkInputColumns } from '../../../connectors/postgres/sink-columns.ts';

export class OperatorConfigError extends Error {
  override name = 'OperatorConfigError';
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
  switch (node.type) {
    case 'filter':
      return nameExpressionFailures(
        wrap('where', () => new FilterOperator(node.config.where, operatorInputTypes(job, node.id))),
        at('where'),
      );
    case 'map':
      return nameExpressionFailures(
        wrap('select', () => new MapOperator(node.config.select, operatorInputTypes(job, node.id))),
        at('select'),
      );
    case 'union':
      return new UnionOperator();
    case 'window':
      return nameExpressionFailures(
        wrap('window', () => createWindowOperator(node, job)),
        at('aggregates'),
      );
    case 'aggregate':
      return wrap('aggregates', () => createAggregateOperator(node, job));
    case 'topn':
      return wrap('orderBy', () => createTopNOperator(node));
    case 'join.interval':
      return wrap('select', () => createIntervalJoinOperator(node));
    case 'join.window':
      return wrap('window', () => createWindowJoinOperator(node));
    case 'join':
      return wrap('select', () => createRegularJoinOperator(node));
    case 'sink.file':
      return new FileSinkOperator(node.config, services);
    case 'sink.postgres':
      return new PostgresSinkOperator(
        node.config,
        { jobName: job.name, nodeId: node.id, at: `nodes[${index}].config`, columns: sinkInputColumns(job, node.id) },
        services,
      );
    case 'sink.preview':
      return new PreviewSinkOperator(node.config, services);
    default:
      throw new OperatorConfigError(`nodes[${index}]: '${node.type}' is not an operator`);
  }
}

/** Operators that keep keyed state (and therefore get a state backend). */
export function needsKeyedState(node: JobNode): boolean {
  return nodeDefinition(node.type).keyedState ?? false;
}
