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

export const JOB_FORMAT = 'weir.job/v1' as const;

/** A duration: a number of milliseconds or a string with a unit (`ms`, `s`, `m`, `h`, `d`). */
export type DurationInput = number | string;
/** A size: a number of bytes or a string with a unit (`b`, `kb`, `mb`, `gb`). */
export type SizeInput = number | string;

export type StateBackendKind = 'memory' | 'fs' | 'rocksdb';
export type CheckpointMode = 'exactly-once' | 'at-least-once';
export type RecordFormat = 'jsonl' | 'csv';

export interface Position {
  x: number;
  y: number;
}

export interface EventTimeConfig {
  /** Column holding epoch milliseconds or an ISO-8601 string. */
  field: string;
  maxOutOfOrderness?: DurationInput;
  idleTimeout?: DurationInput;
}

export interface FileSourceConfig {
  path: string;
  format: RecordFormat;
  follow?: boolean;
  /** `dead-letter`: each bad record goes, with file, line and reason, to the source's `bad` port. */
  onBadRecord?: 'skip' | 'fail' | 'dead-letter';
  eventTime?: EventTimeConfig;
  /** Optional declared columns (name -> Flink SQL type); otherwise inferred from the data. */
  columns?: Record<string, string>;
}

export interface GeneratorSourceConfig {
  seed?: number;
  /** Number of records; absent = unbounded. */
  count?: number;
  /** Records per second; absent = as fast as possible. */
  rate?: number;
  /** Key cardinality: keys are `k0` .. `k{keys-1}`. */
  keys?: number;
  /** Random jitter applied to `ts` to make the stream out of order. */
  outOfOrderness?: DurationInput;
  /** Event time of record 0 (epoch ms); default 1_700_000_000_000. */
  startTime?: number;
  /** Event-time step between consecutive records (ms); default 10. */
  step?: number;
  eventTime?: EventTimeConfig;
}

/**
 * `source.postgres`: one table. `snapshot` reads it once in primary-key order (bounded); `cdc` reads
 * a snapshot and then the table's changes through a logical replication slot (a changelog).
 */
export interface PostgresSourceConfig {
  /** `postgresql://user@host:5432/db` (never a password: see passwordEnv). */
  url: string;
  /** Environment variable holding the password, read when the run connects. */
  passwordEnv?: string;
  /** `schema.table` or `table` (schema public). */
  table: string;
  mode: 'snapshot' | 'cdc';
  eventTime?: EventTimeConfig;
  /** Declared columns (name -> Flink SQL type), for validation and export before any connection. */
  columns?: Record<string, string>;
  /** Primary-key columns, comma-separated: for export (Flink's PRIMARY KEY); checked against the table at run start. */
  primaryKey?: string;
  /** Replication slot name (cdc); default `weir_<job>_<node>`. */
  slotName?: string;
}

export interface FilterConfig {
  where: string;
}
export interface MapConfig {
  select: string;
}
export type UnionConfig = Record<string, never>;

export type WindowSpec =
  | { kind: 'tumbling'; size: DurationInput }
  | { kind: 'sliding'; size: DurationInput; slide: DurationInput }
  | { kind: 'session'; gap: DurationInput };

export interface WindowConfig {
  /** Comma-separated column list, optional (absent = one global window per window range). */
  keyBy?: string;
  window: WindowSpec;
  /** SQL aggregate list: `COUNT(*) AS n, SUM(amount) AS total`. */
  aggregates: string;
  allowedLateness?: DurationInput;
}

/**
 * Two-input nodes (`join.interval`) read edges with `toPort: "left"` or `"right"`; their `select`
 * names columns `L.x` / `R.x`. Durations `lower`/`upper` may be negative (`"-5s"`).
 */
export interface IntervalJoinConfig {
  leftKey: string;
  rightKey: string;
  lower: DurationInput;
  upper: DurationInput;
  select: string;
}

/** Records of both inputs with equal keys in the same window (Flink's window join). */
export interface WindowJoinConfig {
  leftKey: string;
  rightKey: string;
  window: WindowSpec;
  /** `L.x`, `R.y`, and `window_start` / `window_end`. */
  select: string;
}

export type JoinKind = 'inner' | 'left' | 'right' | 'full';

/** A regular join; outer joins emit updates (a row padded with NULLs is retracted on a match). */
export interface JoinConfig {
  kind: JoinKind;
  leftKey: string;
  rightKey: string;
  select: string;
  /** Rows older than this (event time, behind the watermark) are forgotten. */
  stateTtl?: DurationInput;
}

/** Group aggregation without windows: emits -U/+U updates as its input grows. */
export interface AggregateConfig {
  keyBy: string;
  /** SQL aggregate list, also COUNT(DISTINCT x) and `... FILTER (WHERE ...)`. */
  aggregates: string;
  /** Keys not updated for this long (event time) are forgotten. */
  stateTtl?: DurationInput;
}

/**
 * Top N rows per partition; `limit: 1` ordered by `ts` is deduplication. Emits a changelog of rank
 * changes, or with `window` the final top N of each window (append-only).
 */
export interface TopNConfig {
  partitionBy: string;
  /** `price DESC, ts ASC`: columns with optional ASC (default) / DESC. */
  orderBy: string;
  limit: number;
  /**
   * Top N per partition and window (Flink's window Top-N): rows are ranked when the watermark
   * passes the window's end and emitted once, append-only, with window_start and window_end.
   */
  window?: WindowSpec;
}

/** `changelog-json`: one JSON line per change, with an `op` field (`+I`, `-U`, `+U`, `-D`). */
export type FileSinkFormat = RecordFormat | 'changelog-json';
export interface FileSinkConfig {
  path: string;
  format: FileSinkFormat;
}
/**
 * `sink.postgres`: rows written by column name into an existing table, exactly once (append: a
 * prepared transaction per checkpoint and subtask; upsert: a changelog applied by `key`).
 */
export interface PostgresSinkConfig {
  /** `postgresql://user@host:5432/db`, never with a password. */
  url: string;
  /** The environment variable holding the password, read when the run connects. */
  passwordEnv?: string;
  /** `schema.table` or `table` (schema public). */
  table: string;
  mode: 'append' | 'upsert';
  /** Upsert only: `col, col`, columns of a primary key or unique constraint of the table. */
  key?: string;
}
export interface PreviewSinkConfig {
  limit?: number;
}

/**
 * `source.nexmark`: the Nexmark benchmark's events (engine/connectors/nexmark), deterministic per
 * seed, on three ports `person`, `auction`, `bid` with event time `dateTime` (epoch ms).
 */
export interface NexmarkSourceConfig {
  /** Number of events (persons, auctions and bids together); absent = unbounded. */
  events?: number;
  seed?: number;
  /** Events per second (Flink's `first-event.rate`): throttles emission and spaces event time; absent = as fast as possible, event time spaced at 10 000 events/s. */
  rate?: number;
  /** Event time of event 0 (epoch ms); default 1_700_000_000_000. */
  baseTime?: number;
  /** Watermark delay behind the largest `dateTime` read; default 4s (Flink's Nexmark DDL). */
  maxOutOfOrderness?: DurationInput;
}

export interface NodeConfigByType {
  'source.file': FileSourceConfig;
  'source.generator': GeneratorSourceConfig;
  'source.nexmark': NexmarkSourceConfig;
  'source.postgres': PostgresSourceConfig;
  filter: FilterConfig;
  map: MapConfig;
  union: UnionConfig;
  window: WindowConfig;
  'join.interval': IntervalJoinConfig;
  'join.window': WindowJoinConfig;
  join: JoinConfig;
  aggregate: AggregateConfig;
  topn: TopNConfig;
  'sink.file': FileSinkConfig;
  'sink.postgres': PostgresSinkConfig;
  'sink.preview': PreviewSinkConfig;
}

export type NodeType = keyof NodeConfigByType;
export const NODE_TYPES: readonly NodeType[] = [
  'source.file',
  'source.generator',
  'source.nexmark',
  'source.postgres',
  'filter',
  'map',
  'union',
  'window',
  'join.interval',
  'join.window',
  'join',
  'aggregate',
  'topn',
  'sink.file',
  'sink.postgres',
  'sink.preview',
];

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
