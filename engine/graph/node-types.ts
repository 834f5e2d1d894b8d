/**
 * The registry of node types: one line per type, in palette order. Everything that needs to know
 * the types (the job format's types, the connection rules, the palette, the canvas icons, the
 * inspector) reads this list; adding a type is its definition module plus a line here.
 * Browser-safe.
 */
import type { ConfigOf, NodeDefinition } from '../nodes/definition.ts';
import { fileSource } from '../nodes/source-file/definition.ts';
import { generatorSource } from '../nodes/source-generator/definition.ts';
import { nexmarkSource } from '../nodes/source-nexmark/definition.ts';
import { postgresSource } from '../nodes/source-postgres/definition.ts';
import { kafkaSource } from '../nodes/source-kafka/definition.ts';
import { filter } from '../nodes/filter/definition.ts';
import { map } from '../nodes/map/definition.ts';
import { union } from '../nodes/union/definition.ts';
import { window } from '../nodes/window/definition.ts';
import { intervalJoin } from '../nodes/join-interval/definition.ts';
import { windowJoin } from '../nodes/join-window/definition.ts';
import { join } from '../nodes/join/definition.ts';
import { aggregate } from '../nodes/aggregate/definition.ts';
import { topn } from '../nodes/topn/definition.ts';
import { fileSink } from '../nodes/sink-file/definition.ts';
import { postgresSink } from '../nodes/sink-postgres/definition.ts';
import { kafkaSink } from '../nodes/sink-kafka/definition.ts';
import { previewSink } from '../nodes/sink-preview/definition.ts';
import { blackholeSink } from '../nodes/sink-blackhole/definition.ts';

export const NODE_DEFINITIONS = [
  fileSource,
  generatorSource,
  nexmarkSource,
  postgresSource,
  kafkaSource,
  filter,
  map,
  union,
  window,
  intervalJoin,
  windowJoin,
  join,
  aggregate,
  topn,
  fileSink,
  postgresSink,
  kafkaSink,
  previewSink,
  blackholeSink,
] as const;

type Definitions = (typeof NODE_DEFINITIONS)[number];

/** Each node type's config, by type name (the job format's `config`). */
export type NodeConfigByType = { [D in Definitions as D['type']]: ConfigOf<D> };
export type NodeType = keyof NodeConfigByType;

export const NODE_TYPES: readonly NodeType[] = NODE_DEFINITIONS.map((d) => d.type);

const BY_TYPE = new Map<string, Definitions>(NODE_DEFINITIONS.map((d) => [d.type, d]));

/** The definition of a type, typed by its config. */
export function nodeDefinition<T extends NodeType>(type: T): NodeDefinition<T, NodeConfigByType[T]> {
  return BY_TYPE.get(type) as unknown as NodeDefinition<T, NodeConfigByType[T]>;
}

/** Whether `x` names a node type this version knows. */
export function isNodeType(x: unknown): x is NodeType {
  return typeof x === 'string' && BY_TYPE.has(x);
}

/** The definition of a node's type, typed by the node's config. */
export function definitionOf<T extends NodeType>(node: {
  type: T;
  config: NodeConfigByType[T];
}): NodeDefinition<T, NodeConfigByType[T]> {
  return nodeDefinition(node.type);
}
