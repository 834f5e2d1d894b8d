/**
 * Flink's OneInputStreamOperatorTestHarness for Weir operators: drive one operator subtask with
 * batches and watermarks, collect what it emits per port (and the order of outputs and
 * watermarks), take a snapshot, and restore it into a fresh operator with a fresh state backend.
 *
 * Restore follows what the runtime does: the keyed snapshots go to the new backend's `restore`
 * with the subtask's key-group range (filtering out groups it does not own), the operator states
 * of all old subtasks go to `open` as `restored.operator`.
 */
import type {
  OperatorContext,
  OperatorOutput,
  OutputPort,
  RecordBatch,
  Row,
  RowKind,
  StreamOperator,
} from '../../../engine/contracts/operator.ts';
import type { KeyedStateBackend, KeyedStateSnapshot, KeyGroupRange } from '../../../engine/contracts/keyed-state.ts';
import { keyGroupRangeFor } from '../../../engine/state/keygroups.ts';
import { InMemoryKeyedStateBackend } from './in-memory-state-backend.ts';

export interface TimestampedRow {
  row: Row;
  ts: number;
}

export type HarnessEvent =
  | { kind: 'records'; port: OutputPort; rows: Row[]; ts: number[]; kinds?: RowKind[] }
  | { kind: 'watermark'; watermark: number };

/** What one subtask contributed to a checkpoint, with the keyed part already materialized. */
export interface HarnessSnapshot {
  checkpointId: number;
  subtask: number;
  operator?: unknown;
  keyed?: KeyedStateSnapshot;
}

export type BackendFactory = (range: KeyGroupRange, subtask: number) => KeyedStateBackend | Promise<KeyedStateBackend>;

export interface HarnessOptions {
  nodeId?: string;
  subtask?: number;
  parallelism?: number;
  maxParallelism?: number;
  /** Default: the harness's InMemoryKeyedStateBackend. */
  backend?: BackendFactory;
  /** false for stateless operators: `ctx.state` is null, as the runtime gives them (default true). */
  keyed?: boolean;
  /** Paths resolve against this folder (default: the process's working directory). */
  baseDir?: string;
}

export const inMemoryBackend: BackendFactory = (range) => new InMemoryKeyedStateBackend(range);

export class OperatorTestHarness {
  readonly events: HarnessEvent[] = [];
  lateRecordsDropped = 0;
  badRecords = 0;
  readonly keyGroupRange: KeyGroupRange;

  private constructor(
    readonly operator: StreamOperator,
    readonly backend: KeyedStateBackend,
    readonly subtask: number,
    readonly parallelism: number,
    readonly maxParallelism: number,
  ) {
    this.keyGroupRange = keyGroupRangeFor(maxParallelism, parallelism, subtask);
  }

  /** Creates the operator, its backend (restored from `restoreFrom` when given) and opens it. */
  static async open(
    createOperator: () => StreamOperator,
    options: HarnessOptions = {},
    restoreFrom?: HarnessSnapshot[],
  ): Promise<OperatorTestHarness> {
    const subtask = options.subtask ?? 0;
    const parallelism = options.parallelism ?? 1;
    const maxParallelism = options.maxParallelism ?? 128;
    const range = keyGroupRangeFor(maxParallelism, parallelism, subtask);
    const backend = await (options.backend ?? inMemoryBackend)(range, subtask);
    const keyed = (restoreFrom ?? []).flatMap((s) => (s.keyed ? [s.keyed] : []));
    if (keyed.length > 0) await backend.restore(keyed, range);
    const h = new OperatorTestHarness(createOperator(), backend, subtask, parallelism, maxParallelism);
    const ctx: OperatorContext = {
      nodeId: options.nodeId ?? 'op',
      subtask,
      parallelism,
      maxParallelism,
      keyGroupRange: range,
      state: options.keyed === false ? null : backend,
      metrics: {
        lateRecords: (n) => {
          h.lateRecordsDropped += n;
        },
        badRecords: (n) => {
          h.badRecords += n;
        },
      },
      resolvePath: (p) => (options.baseDir && !p.startsWith('/') ? `${options.baseDir}/${p}` : p),
    };
    const out: OperatorOutput = {
      emit: (batch, port = 'out') => {
        if (batch.rows.length !== batch.ts.length) {
          throw new Error(`operator emitted a batch with ${batch.rows.length} rows but ${batch.ts.length} timestamps`);
        }
        if (batch.kinds && batch.kinds.length !== batch.rows.length) {
          throw new Error(
            `operator emitted a batch with ${batch.rows.length} rows but ${batch.kinds.length} row kinds`,
          );
        }
        h.events.push({
          kind: 'records',
          port,
          rows: batch.rows,
          ts: batch.ts,
          ...(batch.kinds ? { kinds: batch.kinds } : {}),
        });
      },
      emitWatermark: (watermark) => {
        h.events.push({ kind: 'watermark', watermark });
      },
    };
    const operatorStates = restoreFrom?.map((s) => s.operator).filter((s) => s !== undefined);
    await h.operator.open(ctx, out, restoreFrom ? { operator: operatorStates } : undefined);
    return h;
  }

  processBatch(batch: RecordBatch, input = 0): Promise<void> {
    return this.operator.processBatch(batch, input);
  }

  /** Convenience: rows with their timestamps as one batch. */
  processElements(elements: readonly TimestampedRow[], input = 0): Promise<void> {
    return this.operator.processBatch({ rows: elements.map((e) => e.row), ts: elements.map((e) => e.ts) }, input);
  }

  processWatermark(watermark: number): Promise<void> {
    return this.operator.processWatermark(watermark);
  }

  async endInput(): Promise<void> {
    await this.operator.processWatermark(Infinity);
    await this.operator.endInput();
  }

  /** Takes checkpoint `checkpointId` and waits for its asynchronous part. */
  async snapshot(checkpointId: number): Promise<HarnessSnapshot> {
    const snap = await this.operator.snapshotState(checkpointId);
    const keyed = snap.keyed ? await snap.keyed() : undefined;
    return { checkpointId, subtask: this.subtask, operator: snap.operator, keyed };
  }

  /** Emitted records of one port, in emission order. */
  output(port: OutputPort = 'out'): TimestampedRow[] {
    const out: TimestampedRow[] = [];
    for (const e of this.events) {
      if (e.kind === 'records' && e.port === port) {
        for (let i = 0; i < e.rows.length; i++) out.push({ row: e.rows[i], ts: e.ts[i] });
      }
    }
    return out;
  }

  /** Emitted changes of one port in order; rows of batches without kinds are inserts (+I). */
  changelog(port: OutputPort = 'out'): Array<{ kind: RowKind; row: Row; ts: number }> {
    const out: Array<{ kind: RowKind; row: Row; ts: number }> = [];
    for (const e of this.events) {
      if (e.kind === 'records' && e.port === port) {
        for (let i = 0; i < e.rows.length; i++) out.push({ kind: e.kinds?.[i] ?? '+I', row: e.rows[i], ts: e.ts[i] });
      }
    }
    return out;
  }

  watermarks(): number[] {
    return this.events.flatMap((e) => (e.kind === 'watermark' ? [e.watermark] : []));
  }

  /** Forgets collected output (e.g. after checking a phase of a test). */
  clearOutput(): void {
    this.events.length = 0;
  }

  async close(): Promise<void> {
    await this.operator.close();
    await this.backend.dispose();
  }
}
