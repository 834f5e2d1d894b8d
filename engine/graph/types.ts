/**
 * The `weir.job/v1` document: what the designer saves, what `weir run` executes and what export
 * reads. A public contract: field names here are never renamed.
 *
 * `JobDocument` is the document as written by a person (optional fields, durations as strings).
 * `NormalizedJob` is the same job with every default filled in and every duration/size turned into
 * numbers (milliseconds / bytes); the engine and the exporters only ever see a `NormalizedJob`.
 * This module is browser-safe: the renderer imports it.
 */

import type { NexmarkPort } from './nexmark.ts';
import type { NodeConfigByType, NodeType } from './node-types.ts';
import type { DurationInput, SizeInput } from '../nodes/config.ts';

// Each node type's config is declared by its definition (engine/nodes/<type>/definition.ts).
export type { DurationInput, EventTimeConfig, RecordFormat, SizeInput, WindowSpec } from '../nodes/config.ts';
export type { FileSourceConfig } from '../nodes/source-file/definition.ts';
export type { GeneratorSourceConfig } from '../nodes/source-generator/definition.ts';
export type { NexmarkSourceConfig } from '../nodes/source-nexmark/definition.ts';
export type { PostgresSourceConfig } from '../nodes/source-postgres/definition.ts';
export type { KafkaSourceConfig } from '../nodes/source-kafka/definition.ts';
export type { FilterConfig } from '../nodes/filter/definition.ts';
export type { MapConfig } from '../nodes/map/definition.ts';
export type { UnionConfig } from '../nodes/union/definition.ts';
export type { WindowConfig } from '../nodes/window/definition.ts';
export type { IntervalJoinConfig } from '../nodes/join-interval/definition.ts';
export type { WindowJoinConfig } from '../nodes/join-window/definition.ts';
export type { JoinConfig, JoinKind } from '../nodes/join/definition.ts';
export type { AggregateConfig } from '../nodes/aggregate/definition.ts';
export type { TopNConfig } from '../nodes/topn/definition.ts';
export type { FileSinkConfig, FileSinkFormat } from '../nodes/sink-file/definition.ts';
export type { PostgresSinkConfig } from '../nodes/sink-postgres/definition.ts';
export type { KafkaSinkConfig } from '../nodes/sink-kafka/definition.ts';
export type { PreviewSinkConfig } from '../nodes/sink-preview/definition.ts';
export type { BlackholeSinkConfig } from '../nodes/sink-blackhole/definition.ts';
export { NODE_TYPES, type NodeConfigByType, type NodeType } from './node-types.ts';

export const JOB_FORMAT = 'weir.job/v1' as const;

export type StateBackendKind = 'memory' | 'fs' | 'rocksdb';
export type CheckpointMode = 'exactly-once' | 'at-least-once';

export interface Position {
  x: number;
  y: number;
}

export type JobNodeOf<T extends NodeType> = {
  id: string;
  type: T;
  name?: string;
  position?: Position;
  parallelism?: number;
  config: NodeConfigByType[T];
};
export type JobNode = { [T in NodeType]: JobNodeOf<T> }[NodeType];

export interface JobEdge {
  from: string;
  to: string;
  /** Output port of `from`: `out` (default), `late` for windows, `bad` (dead letters) for file sources, `person`/`auction`/`bid` for source.nexmark. */
  fromPort?: 'out' | 'late' | 'bad' | NexmarkPort;
  /** Input port of `to`: required into two-input nodes (`join.interval`), absent elsewhere. */
  toPort?: 'left' | 'right';
}

export interface JobSettingsInput {
  stateBackend?: StateBackendKind;
  checkpointing?: {
    interval?: DurationInput;
    mode?: CheckpointMode;
    timeout?: DurationInput;
    minPause?: DurationInput;
    retained?: number;
    incremental?: boolean;
    dir?: string;
    tolerableFailures?: number;
  };
  memoryStateLimit?: SizeInput;
  parallelism?: number;
  maxParallelism?: number;
  restart?: { attempts?: number; delay?: DurationInput };
}

export interface JobDocument {
  $schema?: string;
  format: typeof JOB_FORMAT;
  name: string;
  settings?: JobSettingsInput;
  nodes: JobNode[];
  edges: JobEdge[];
  /** Designer only (the engine ignores them): labelled frames around nodes. */
  groups?: JobGroup[];
  /** Designer only (the engine ignores them): sticky notes on the canvas. */
  notes?: JobNote[];
}

/**
 * A labelled frame around nodes on the canvas, as Node-RED and NiFi groups are. Its frame is drawn
 * around its members wherever they are, so it has no geometry of its own. Ignored by the engine.
 */
export interface JobGroup {
  id: string;
  label: string;
  /** Ids of the member nodes; ids no longer in the job are dropped by the designer. */
  nodes: string[];
  color?: string;
}

/** A sticky note (a comment) on the canvas. Ignored by the engine. */
export interface JobNote {
  id: string;
  text: string;
  position: Position;
  width?: number;
  height?: number;
}

/** Settings with every default applied; durations in ms, sizes in bytes. */
export interface JobSettings {
  stateBackend: StateBackendKind;
  checkpointing: {
    /** null = checkpointing off (as in Flink when no interval is set). */
    interval: number | null;
    mode: CheckpointMode;
    timeout: number;
    minPause: number;
    retained: number;
    incremental: boolean;
    dir: string;
    tolerableFailures: number;
  };
  memoryStateLimit: number;
  parallelism: number;
  maxParallelism: number;
  restart: { attempts: number; delay: number };
}

export const DEFAULT_SETTINGS: JobSettings = {
  stateBackend: 'memory',
  checkpointing: {
    interval: null,
    mode: 'exactly-once',
    timeout: 600_000,
    minPause: 0,
    retained: 1,
    incremental: false,
    dir: 'checkpoints',
    tolerableFailures: 0,
  },
  memoryStateLimit: 5 * 1024 * 1024,
  parallelism: 1,
  maxParallelism: 128,
  restart: { attempts: 3, delay: 1000 },
};

/**
 * A job after validation and normalization. Nodes keep their `config` as written (expressions as
 * text) except that durations inside configs are also normalized to milliseconds by the engine's
 * config readers; `parallelism` is always set; paths stay as written and resolve against `baseDir`.
 */
export interface NormalizedJob {
  format: typeof JOB_FORMAT;
  name: string;
  settings: JobSettings;
  nodes: Array<JobNode & { parallelism: number }>;
  edges: NormalizedEdge[];
  /** Folder that relative paths resolve against (the job file's folder). Not serialized. */
  baseDir?: string;
}

/** An edge with its `fromPort` set; `toPort` only into two-input nodes. */
export type NormalizedEdge = Required<Omit<JobEdge, 'toPort'>> & Pick<JobEdge, 'toPort'>;

/** One problem found in a job, with a JSON path such as `nodes[1].config.where`. */
export interface JobProblem {
  path: string;
  message: string;
  /** Node id when the problem belongs to one node (lets the designer outline it). */
  nodeId?: string;
  severity?: 'error' | 'warning';
}
