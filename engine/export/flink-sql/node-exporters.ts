/**
 * How each node type becomes Flink SQL: the exporter's registry, one entry per type (the type's
 * browser-safe facts are in its definition, engine/nodes/<type>/; its SQL lives here, at the
 * export layer). By the inputs an entry takes:
 * - `source`: no input; its table's columns are known first (`columns`), then it is emitted;
 * - `inputs`: every input relation (a union);
 * - `join`: the relations on its left and right ports;
 * - `input`: one relation (several are unioned into one view first).
 * `emit` returns false when the node cannot be part of the script (the reason is a warning).
 */
import type { JobNodeOf, NodeType } from '../../graph/types.ts';
import type { Col, ExportContext, Relation } from './context.ts';
import { defaultSlotName } from '../../connectors/postgres/names.ts';
import { NEXMARK_PORTS } from '../../graph/nexmark.ts';
import { emitNexmarkSource, nexmarkColumns } from './nexmark-source.ts';
import { emitPostgresSource, postgresSourceColumns } from './postgres-source.ts';
import { emitKafkaSource, kafkaSourceColumns } from './kafka-source.ts';
import { emitAggregate, emitIntervalJoin, emitRegularJoin, emitTopN, emitWindowJoin } from './relational.ts';
import { emitSink } from './sinks.ts';
import { emitFileSource, emitGeneratorSource, fileSourceColumns, generatorColumns } from './sources.ts';
import { emitFilter, emitMap, unionOf } from './transforms.ts';
import { quoteIdent } from './identifiers.ts';
import { emitWindow } from './windows.ts';
import { intervalJoin } from '../../nodes/join-interval/definition.ts';
import { windowJoin } from '../../nodes/join-window/definition.ts';
import { fileSink } from '../../nodes/sink-file/definition.ts';
import { postgresSink } from '../../nodes/sink-postgres/definition.ts';
import { kafkaSink } from '../../nodes/sink-kafka/definition.ts';
import { previewSink } from '../../nodes/sink-preview/definition.ts';
import { blackholeSink } from '../../nodes/sink-blackhole/definition.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';
import { generatorSource } from '../../nodes/source-generator/definition.ts';
import { nexmarkSource } from '../../nodes/source-nexmark/definition.ts';
import { postgresSource } from '../../nodes/source-postgres/definition.ts';
import { kafkaSource } from '../../nodes/source-kafka/definition.ts';
import { filter as filterNode } from '../../nodes/filter/definition.ts';
import { map as mapNode } from '../../nodes/map/definition.ts';
import { union as unionNode } from '../../nodes/union/definition.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';
import { join as joinNode } from '../../nodes/join/definition.ts';
import { aggregate as aggregateNode } from '../../nodes/aggregate/definition.ts';
import { topn as topnNode } from '../../nodes/topn/definition.ts';

type Node<T extends NodeType> = JobNodeOf<T> & { parallelism: number };

export type NodeExporter<T extends NodeType> =
  | {
      kind: 'source';
      columns(ctx: ExportContext, node: Node<T>): Col[];
      emit(ctx: ExportContext, node: Node<T>): void;
    }
  | { kind: 'inputs'; emit(ctx: ExportContext, node: Node<T>, inputs: Relation[]): boolean }
  | { kind: 'join'; emit(ctx: ExportContext, node: Node<T>, left: Relation, right: Relation): boolean }
  | {
      kind: 'input';
      emit(ctx: ExportContext, node: Node<T>, input: Relation): boolean;
      /** Sinks set their parallelism in their table's options, not per operator. */
      ownParallelism?: boolean;
    };

/** Records the node's relation when it has one; whether it was emitted. */
function related(ctx: ExportContext, node: { id: string }, rel: Relation | null): boolean {
  if (rel) ctx.relations.set(node.id, rel);
  return rel !== null;
}

type SinkNode =
  | Node<typeof fileSink.type>
  | Node<typeof postgresSink.type>
  | Node<typeof kafkaSink.type>
  | Node<typeof previewSink.type>
  | Node<typeof blackholeSink.type>;
const sink = {
  kind: 'input' as const,
  ownParallelism: true,
  emit: (ctx: ExportContext, node: SinkNode, input: Relation) => {
    emitSink(ctx, node, input);
    return true;
  },
};

export const NODE_EXPORTERS: { [T in NodeType]: NodeExporter<T> } = {
  [fileSource.type]: { kind: 'source', columns: fileSourceColumns, emit: emitFileSource },
  [generatorSource.type]: { kind: 'source', columns: () => generatorColumns(), emit: emitGeneratorSource },
  [nexmarkSource.type]: {
    kind: 'source',
    columns: () => NEXMARK_PORTS.flatMap(nexmarkColumns),
    emit: emitNexmarkSource,
  },
  [postgresSource.type]: {
    kind: 'source',
    columns: (_ctx, node) => postgresSourceColumns(node),
    emit: (ctx, node) => emitPostgresSource(ctx, node, defaultSlotName(ctx.job.name, node.id)),
  },
  [kafkaSource.type]: { kind: 'source', columns: kafkaSourceColumns, emit: emitKafkaSource },
  [filterNode.type]: {
    kind: 'input',
    emit: (ctx, node, input) => {
      emitFilter(ctx, node, input);
      return true;
    },
  },
  [mapNode.type]: {
    kind: 'input',
    emit: (ctx, node, input) => {
      emitMap(ctx, node, input);
      return true;
    },
  },
  [unionNode.type]: {
    kind: 'inputs',
    emit: (ctx, node, inputs) => related(ctx, node, unionOf(ctx, node, inputs, quoteIdent(node.id))),
  },
  [windowNode.type]: { kind: 'input', emit: (ctx, node, input) => related(ctx, node, emitWindow(ctx, node, input)) },
  [intervalJoin.type]: {
    kind: 'join',
    emit: (ctx, node, l, r) => related(ctx, node, emitIntervalJoin(ctx, node, l, r)),
  },
  [windowJoin.type]: { kind: 'join', emit: (ctx, node, l, r) => related(ctx, node, emitWindowJoin(ctx, node, l, r)) },
  [joinNode.type]: { kind: 'join', emit: (ctx, node, l, r) => related(ctx, node, emitRegularJoin(ctx, node, l, r)) },
  [aggregateNode.type]: {
    kind: 'input',
    emit: (ctx, node, input) => related(ctx, node, emitAggregate(ctx, node, input)),
  },
  [topnNode.type]: { kind: 'input', emit: (ctx, node, input) => related(ctx, node, emitTopN(ctx, node, input)) },
  [fileSink.type]: sink,
  [postgresSink.type]: sink,
  [kafkaSink.type]: sink,
  [previewSink.type]: sink,
  [blackholeSink.type]: sink,
};

/** The exporter of a node's type, typed by the node. */
export function exporterOf<T extends NodeType>(node: Node<T>): NodeExporter<T> {
  return NODE_EXPORTERS[node.type];
}
