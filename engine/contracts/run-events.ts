/**
 * What a running job tells the world: its status, restarts, checkpoints, metrics, samples and log
 * lines. The runtime emits these; hosts tag them with a run id (`HostEvent` in host/common/api.ts)
 * and carry them to the UI. Browser-safe: plain JSON types only.
 */
import type { CheckpointStats } from './checkpoint.ts';

/** Every status a run goes through; the host protocol's schema reads this list. */
export const JOB_STATUSES = [
  'created',
  'running',
  'restarting',
  'finishing',
  'finished',
  'stopped',
  'failed',
  'canceled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface OperatorMetrics {
  nodeId: string;
  subtask: number;
  recordsIn: number;
  recordsOut: number;
  /** records/s over the last interval */
  rateIn: number;
  rateOut: number;
  /** current output watermark (epoch ms) or null before the first */
  watermark: number | null;
  /** per input channel watermark, null = none yet; idle channels are flagged */
  inputWatermarks: Array<{ channel: string; watermark: number | null; idle: boolean }>;
  /** largest event time seen (sources) */
  maxEventTime: number | null;
  lateRecords: number;
  badRecords: number;
  stateBytes: number;
  stateDiskBytes: number;
  /** 0..1 fill of the output channel; 1 = back-pressured */
  backPressure: number;
  /**
   * Per second of wall clock over the last interval (0..1000, Flink's names): time in this
   * operator's own code, time its subtask was blocked on a full output, and time its subtask had
   * nothing to do. The busiest operator of a slow job is its bottleneck. Absent on the first report.
   */
  busyMsPerSecond?: number;
  backPressuredMsPerSecond?: number;
  idleMsPerSecond?: number;
  /** sinks: records and files waiting for the next commit */
  pendingRecords?: number;
  pendingFiles?: number;
  /**
   * Sources only: true while the subtask has had nothing to read for its `idleTimeout` (it told
   * downstream it is idle, so it holds no watermark back); false when reading or finished.
   */
  idle?: boolean;
  /**
   * Sources with splits (Kafka partitions) only: per split this subtask owns, the offset of the
   * next record it reads and how many records lie between it and the split's end (the lag).
   */
  splits?: Array<{ split: string; offset: number; lag: number }>;
}

export type RunEvent =
  | { type: 'job.status'; status: JobStatus; cause?: string; restarts: number; startedAt: number }
  | { type: 'job.restart'; restarts: number; cause: string; restoredCheckpoint: number | null }
  | { type: 'checkpoint'; stats: CheckpointStats }
  | { type: 'metrics'; time: number; operators: OperatorMetrics[] }
  | { type: 'preview'; target: string; records: unknown[] }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; kind: LogKind; message: string };

/**
 * What a log line is about, so no reader parses it back out of the text:
 * - `notice`: the runner's and operators' remarks (a lock left behind, a slot that holds WAL);
 * - `bad-record`: a source skipped a record; the message is `<file:line or where>: <reason>`;
 * - `stderr`: one line the task process wrote to stderr, as written.
 */
export const LOG_KINDS = ['notice', 'bad-record', 'stderr'] as const;
export type LogKind = (typeof LOG_KINDS)[number];
