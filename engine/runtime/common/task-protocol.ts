/**
 * Messages between the host (job runner) and the task process. Plain data, sent over process IPC
 * with `serialization: 'advanced'`. Records never appear here: only control, metrics, snapshots.
 *
 * Order rules:
 * - host -> task: `start` first, exactly once; `trigger` ids strictly increase; `notify` n is sent
 *   only after every subtask acknowledged n; `close` only after `finished`. `sample` may come at any
 *   time after `start` (also before `ready`: it applies once the subtasks exist) and is idempotent.
 * - task -> host: `ready` after every operator opened; `ack` n after the snapshot's async part is
 *   written; `exhausted` once when every source subtask has read all of its bounded input;
 *   `finished` once when every subtask processed end of input; `failed` is the last message.
 *   `decline` carries the stats of the snapshot that could not be taken when its size is known
 *   (memoryStateLimit), so the failed checkpoint shows how far over the limit it was.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type {
  CheckpointAck,
  CheckpointBarrier,
  SubtaskCheckpointStats,
  SubtaskStateSnapshot,
} from '../../contracts/checkpoint.ts';
import type { LogKind, OperatorMetrics } from '../../contracts/run-events.ts';
import type { PhysicalPlan } from './plan.ts';
import type { OutputPort } from '../../contracts/operator.ts';

export interface RestoreInfo {
  checkpointId: number;
  states: SubtaskStateSnapshot[];
}

export interface TaskStartMessage {
  type: 'start';
  job: NormalizedJob;
  plan: PhysicalPlan;
  restore: RestoreInfo | null;
  attempt: number;
  lineage: string;
  /** Absolute checkpoint folder (fs/rocksdb snapshot files). */
  checkpointDir: string;
  metricsInterval: number;
}

export type HostToTask =
  | TaskStartMessage
  | { type: 'trigger'; barrier: CheckpointBarrier }
  | { type: 'notify'; checkpointId: number }
  /** Edge samples of one node's output port on or off (runtime/task/edge-sampler.ts). */
  | { type: 'sample'; nodeId: string; port: OutputPort; on: boolean }
  | { type: 'close' };

export type TaskToHost =
  | { type: 'ready' }
  | { type: 'ack'; ack: CheckpointAck }
  | { type: 'decline'; checkpointId: number; reason: string; stats?: SubtaskCheckpointStats[] }
  | { type: 'exhausted' }
  | { type: 'finished' }
  | { type: 'notified'; checkpointId: number }
  | { type: 'metrics'; time: number; operators: OperatorMetrics[] }
  | { type: 'preview'; target: string; records: unknown[] }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; kind: LogKind; message: string }
  | { type: 'failed'; message: string }
  | { type: 'closed' };
