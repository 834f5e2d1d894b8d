/**
 * A chain of operators running in one task subtask without queues between them. An operator's
 * `emit` is synchronous, so each link buffers what its operator emitted during one call and the
 * chain hands the buffer to the next operator, in order, once the call has resolved.
 * The runtime, not the operators, drops watermark regressions and tracks per-operator metrics.
 */
import type {
  OperatorOutput,
  OutputPort as OperatorPort,
  RecordBatch,
  StreamOperator,
} from '../../contracts/operator.ts';
import type { TaskOutput } from './task-output.ts';
import type { KeyedStateBackend } from '../../contracts/keyed-state.ts';
import type { EdgeTap } from './edge-sampler.ts';

type Event = { batch: RecordBatch; port: OperatorPort } | { watermark: number };

export class ChainLink implements OperatorOutput {
  events: Event[] = [];
  /** Last watermark handed to this operator (its merged input watermark). */
  inputWatermark = -Infinity;
  /** Last watermark this operator emitted. */
  outputWatermark = -Infinity;
  recordsIn = 0;
  recordsOut = 0;
  lateRecords = 0;
  badRecords = 0;
  /** Milliseconds spent in this operator's own calls (Flink's busy time), summed since the start. */
  busyMs = 0;
  ended = false;
  state: KeyedStateBackend | null = null;
  /** Edge-sample taps of this operator's output ports (null = off: one check per batch). */
  tapOut: EdgeTap | null = null;
  tapLate: EdgeTap | null = null;
  constructor(
    readonly nodeId: string,
    readonly op: StreamOperator,
  ) {}

  emit(batch: RecordBatch, port: OperatorPort = 'out'): void {
    if (batch.rows.length === 0) return;
    if (port === 'out') {
      this.recordsOut += batch.rows.length;
      if (this.tapOut !== null) this.tapOut.offer(batch);
    } else if (this.tapLate !== null) this.tapLate.offer(batch);
    this.events.push({ batch, port });
  }

  emitWatermark(watermark: number): void {
    if (!(watermark > this.outputWatermark)) return;
    this.outputWatermark = watermark;
    this.events.push({ watermark });
  }
}

export class OperatorChain {
  constructor(
    readonly links: ChainLink[],
    readonly output: TaskOutput,
  ) {}

  /** Feed a batch into link `i` (0 = chain head) and everything it causes downstream. */
  async pushBatch(i: number, batch: RecordBatch, input: number): Promise<void> {
    if (i === this.links.length) {
      this.output.emit(batch, 'out');
      return;
    }
    const link = this.links[i];
    link.recordsIn += batch.rows.length;
    const t0 = performance.now();
    await link.op.processBatch(batch, input);
    link.busyMs += performance.now() - t0;
    if (link.events.length) await this.drain(i);
  }

  async pushWatermark(i: number, watermark: number): Promise<void> {
    if (i === this.links.length) {
      this.output.broadcast({ kind: 'watermark', watermark });
      return;
    }
    const link = this.links[i];
    if (!(watermark > link.inputWatermark)) return;
    link.inputWatermark = watermark;
    const t0 = performance.now();
    await link.op.processWatermark(watermark);
    link.busyMs += performance.now() - t0;
    if (link.events.length) await this.drain(i);
  }

  /** Hand what link i emitted to link i+1 (or the network), in emission order. */
  async drain(i: number): Promise<void> {
    const link = this.links[i];
    const events = link.events;
    link.events = [];
    const last = i + 1 === this.links.length;
    for (const e of events) {
      if ('watermark' in e) await this.pushWatermark(i + 1, e.watermark);
      else if (last) this.output.emit(e.batch, e.port);
      else if (e.port === 'out') await this.pushBatch(i + 1, e.batch, 0);
      // A non-`out` port of a mid-chain operator has no edge (else it would end the chain): dropped.
    }
  }

  /** End of input: final +Infinity watermark then endInput, link by link from the head. */
  async endInput(from = 0): Promise<void> {
    for (let i = from; i < this.links.length; i++) {
      await this.pushWatermark(i, Infinity);
      const link = this.links[i];
      if (!link.ended) {
        link.ended = true;
        await link.op.endInput();
        if (link.events.length) await this.drain(i);
      }
    }
  }

  async notifyCheckpointComplete(id: number): Promise<void> {
    for (let i = 0; i < this.links.length; i++) {
      await this.links[i].op.notifyCheckpointComplete(id);
      if (this.links[i].events.length) await this.drain(i);
    }
  }
}
