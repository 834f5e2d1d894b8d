/**
 * The asynchronous half of a subtask's checkpoint: once the barrier went downstream, the keyed
 * state is written (the state backend's own async part), every operator's snapshot is measured
 * against the memory backend's limit, and the subtask acknowledges checkpoint n, or declines it
 * saying which operator was too large. Runs while the subtask's loop goes on with later records.
 */
import type {
  CheckpointAck,
  CheckpointBarrier,
  SubtaskCheckpointStats,
  SubtaskStateSnapshot,
} from '../../contracts/checkpoint.ts';
import type { KeyedStateSnapshot } from '../../contracts/keyed-state.ts';
import type { OperatorSnapshot } from '../../contracts/operator.ts';
import type { WrappedOperatorState } from '../common/state-assignment.ts';

/** JSON has no infinities: watermarks are stored as finite numbers or null (= -Infinity). */
export function encodeWatermark(w: number): number | null {
  return w === -Infinity ? null : w === Infinity ? Number.MAX_VALUE : w;
}
export function decodeWatermark(w: number | null | undefined): number {
  return w === null || w === undefined ? -Infinity : w === Number.MAX_VALUE ? Infinity : w;
}

/** What the synchronous half captured: the chain's snapshots and input watermarks, the source's state. */
export interface CapturedSnapshot {
  barrier: CheckpointBarrier;
  /** One per chained operator, in chain order, with its node id and input watermark. */
  operators: Array<{ nodeId: string; snapshot: OperatorSnapshot; watermark: number }>;
  source: { nodeId: string; state: unknown; watermark: number } | null;
  timing: { startDelay: number; alignment: number; syncDuration: number };
}

export interface SnapshotTarget {
  subtask: number;
  parallelism: number;
  /** Memory backend: the largest operator-subtask snapshot allowed (bytes), else null. */
  memoryStateLimit: number | null;
  ack(ack: CheckpointAck): void;
  decline(checkpointId: number, reason: string, stats?: SubtaskCheckpointStats[]): void;
}

export async function completeSnapshot(c: CapturedSnapshot, to: SnapshotTarget): Promise<void> {
  const ta = Date.now();
  try {
    const keyed: Array<KeyedStateSnapshot | undefined> = await Promise.all(
      // eslint-disable-next-line @typescript-eslint/await-thenable -- a mix of promises and undefined (stateless operators)
      c.operators.map((o) => (o.snapshot.keyed ? o.snapshot.keyed() : undefined)),
    );
    const asyncDuration = Date.now() - ta;
    const states: SubtaskStateSnapshot[] = [];
    const stats: SubtaskCheckpointStats[] = [];
    const add = (operatorId: string, op: WrappedOperatorState, k: KeyedStateSnapshot | undefined) => {
      const opBytes = Buffer.byteLength(JSON.stringify(op) ?? '');
      const checkpointedBytes = (k?.checkpointedBytes ?? 0) + opBytes;
      const fullBytes = (k?.fullBytes ?? 0) + opBytes;
      const limit = to.memoryStateLimit;
      const stat: SubtaskCheckpointStats = {
        operatorId,
        subtask: to.subtask,
        startDelay: c.timing.startDelay,
        alignmentDuration: c.timing.alignment,
        syncDuration: c.timing.syncDuration,
        asyncDuration,
        checkpointedBytes,
        fullBytes,
      };
      if (limit !== null && fullBytes > limit) {
        stats.push({ ...stat, limitBytes: limit });
        throw new SnapshotDeclined(
          `operator '${operatorId}' subtask ${to.subtask}: snapshot of ${fullBytes} bytes (${fmtBytes(fullBytes)}) exceeds ` +
            `the memory state backend's limit of ${limit} bytes (${fmtBytes(limit)}, memoryStateLimit); use the 'fs' or 'rocksdb' ` +
            `state backend for larger state`,
          stats,
        );
      }
      const st: SubtaskStateSnapshot = { operatorId, subtask: to.subtask, parallelism: to.parallelism, operator: op };
      if (k) st.keyed = k;
      states.push(st);
      stats.push(stat);
    };
    const src = c.source;
    if (src) add(src.nodeId, { state: src.state, watermark: encodeWatermark(src.watermark) }, undefined);
    c.operators.forEach((o, i) =>
      add(o.nodeId, { state: o.snapshot.operator, watermark: encodeWatermark(o.watermark) }, keyed[i]),
    );
    to.ack({ checkpointId: c.barrier.id, states, stats });
  } catch (e) {
    to.decline(c.barrier.id, (e as Error).message, e instanceof SnapshotDeclined ? e.stats : undefined);
  }
}

/** A snapshot refused for its size: carries the sizes measured so far (the refused one last). */
class SnapshotDeclined extends Error {
  constructor(
    message: string,
    readonly stats: SubtaskCheckpointStats[],
  ) {
    super(message);
  }
}

function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
