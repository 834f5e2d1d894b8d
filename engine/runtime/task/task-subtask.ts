/**
 * One task subtask: a chain of operators fed either by a source reader or by an input gate.
 *
 * Scheduling: every subtask runs its own async loop on the task process's single event loop; the
 * only awaits are per batch (operator calls, back-pressure), never per record. Requests from the
 * host (inject barrier n, notify checkpoint complete) are posted as mail and run by the loop between
 * two batches, so no operator method is ever called concurrently with another.
 */
import type { CheckpointAck, CheckpointBarrier, SubtaskCheckpointStats } from '../../contracts/checkpoint.ts';
import type { OperatorSnapshot } from '../../contracts/operator.ts';
import type { InputGate } from './channel.ts';
import type { OperatorChain } from './task-chain.ts';
import type { TaskOutput } from './task-output.ts';
import type { SourceReader } from '../../contracts/source.ts';
import { WatermarkValve } from '../../time/watermark-valve.ts';
import { BoundedOutOfOrdernessWatermarks, IdlenessTimer } from '../../time/watermark-generator.ts';
import { BarrierAligner } from './barrier-aligner.ts';
import type { EdgeTap } from './edge-sampler.ts';
import { splitByPort } from './source-ports.ts';
import { completeSnapshot } from './subtask-snapshot.ts';
import { yieldDue, yieldToEventLoop } from './event-loop-turns.ts';

export const SOURCE_BATCH = 1024;

export interface SubtaskEnv {
  exactlyOnce: boolean;
  checkpointing: boolean;
  /** Memory backend: the largest operator-subtask snapshot allowed (bytes), else null. */
  memoryStateLimit: number | null;
  ack(ack: CheckpointAck): void;
  /** `stats`: the sizes of what could not be taken (memoryStateLimit), for the failed checkpoint's stats. */
  decline(checkpointId: number, reason: string, stats?: SubtaskCheckpointStats[]): void;
  exhausted(task: TaskSubtask): void;
  finished(task: TaskSubtask): void;
  /** The newest barrier the host triggered (finished subtasks acknowledge it without a barrier). */
  currentBarrier(): CheckpointBarrier | null;
}

export interface SourceRuntime {
  nodeId: string;
  reader: SourceReader;
  watermarks: BoundedOutOfOrdernessWatermarks;
  idleness: IdlenessTimer;
  /** Last watermark emitted by the source. */
  watermark: number;
  recordsOut: number;
  badRecords: number;
  /** Milliseconds spent in `reader.read`, summed since the start. */
  busyMs: number;
  exhausted: boolean;
  finalBarrierDone: boolean;
  /** Edge-sample tap of the source's output (null = off). */
  tap: EdgeTap | null;
}

export class TaskSubtask {
  readonly name: string;
  finished = false;
  /** Milliseconds blocked on a full output, summed since the start. */
  backPressuredMs = 0;
  /** Set by `cancel()`: the loop leaves at its next step (stop without finishing the input). */
  private canceled = false;
  /** Id of the last checkpoint this subtask snapshotted (each is acknowledged exactly once). */
  private lastSnapshotId = 0;
  private mail: Array<() => Promise<void>> = [];
  private wakeSleeper: (() => void) | null = null;
  private afterFinish: Promise<void> = Promise.resolve();
  readonly valve: WatermarkValve | null;
  private readonly aligner: BarrierAligner | null;
  private readonly finishedChannels: boolean[];
  private idleOut = false;

  constructor(
    readonly chainIndex: number,
    readonly subtask: number,
    readonly parallelism: number,
    readonly chain: OperatorChain,
    readonly output: TaskOutput,
    private readonly env: SubtaskEnv,
    readonly gate: InputGate | null,
    /** Logical input index (at the chain head) of each gate channel. */
    private readonly inputOfChannel: number[],
    readonly source: SourceRuntime | null,
    restoredWatermark: number,
    lastCheckpointId: number,
  ) {
    this.lastSnapshotId = lastCheckpointId;
    this.name = `${chain.links[0]?.nodeId ?? source?.nodeId}#${subtask}`;
    this.finishedChannels = gate ? gate.channels.map(() => false) : [];
    this.valve = gate ? new WatermarkValve(gate.channels.length, restoredWatermark) : null;
    this.aligner = gate ? new BarrierAligner(gate, this.finishedChannels, env.exactlyOnce) : null;
    this.aligner?.setLastId(lastCheckpointId);
  }

  /** Run `fn` inside the loop between two batches; resolves when it ran. */
  post(fn: () => Promise<void>): Promise<void> {
    if (this.finished) {
      const p = this.afterFinish.then(fn);
      this.afterFinish = p.catch(() => undefined);
      return p;
    }
    return new Promise<void>((resolve, reject) => {
      this.mail.push(() =>
        fn().then(resolve, (e) => {
          reject(e);
          throw e;
        }),
      );
      this.gate?.wake();
      const w = this.wakeSleeper;
      if (w) {
        this.wakeSleeper = null;
        w();
      }
    });
  }

  private async runMail(): Promise<void> {
    while (this.mail.length) await this.mail.shift()!();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t =
        ms === Infinity
          ? null
          : setTimeout(() => {
              this.wakeSleeper = null;
              resolve();
            }, ms);
      this.wakeSleeper = () => {
        if (t) clearTimeout(t);
        resolve();
      };
    });
  }

  /** Stop the loop (job stopped or canceled); the runtime closes the operators afterwards. */
  cancel(): void {
    this.canceled = true;
    this.gate?.wake();
    const w = this.wakeSleeper;
    if (w) {
      this.wakeSleeper = null;
      w();
    }
    // A producer waiting for space would never be woken: release it through its channels.
    this.output.set.releaseWaiters();
  }

  run(): Promise<void> {
    return this.source ? this.runSource() : this.runNetwork();
  }

  private async runSource(): Promise<void> {
    const s = this.source!;
    const { chain, output } = this;
    for (;;) {
      if (this.canceled) return;
      if (this.mail.length) await this.runMail();
      if (s.exhausted) {
        if (!this.env.checkpointing || s.finalBarrierDone) break;
        await this.sleep(Infinity);
        continue;
      }
      const t0 = performance.now();
      const r = await s.reader.read(SOURCE_BATCH);
      s.busyMs += performance.now() - t0;
      const now = Date.now();
      const n = r.rows.length;
      // A reader that keeps watermarks per split (Kafka partitions) says the combined one and idleness.
      const split = s.reader.splitWatermark?.() ?? null;
      // Dead letters go out on the `bad` port (never chained: see plan.ts), in-band before Sn moves on.
      if (r.bad?.length)
        output.emit({ rows: r.bad, ts: r.bad.map(() => (Number.isFinite(s.watermark) ? s.watermark : 0)) }, 'bad');
      if (n > 0) {
        if (s.idleness.activity(now)) {
          output.broadcast({ kind: 'idle', idle: false });
        }
        // Per split, a record's own watermark is not known here: the one emitted before the batch is
        // a lower bound (no record is judged late against a watermark it had not seen).
        const sourceWatermarks = split ? r.ts.map(() => s.watermark) : s.watermarks.observeEach(r.ts);
        if (split) s.watermarks.observe(r.ts);
        s.recordsOut += n;
        const batch = r.kinds
          ? { rows: r.rows, ts: r.ts, sourceWatermarks, kinds: r.kinds }
          : { rows: r.rows, ts: r.ts, sourceWatermarks };
        if (r.ports) {
          for (const [port, part] of splitByPort(batch, r.ports)) output.emit(part, port);
        } else {
          if (s.tap !== null) s.tap.offer(batch);
          await chain.pushBatch(0, batch, 0);
        }
        // Bounded out-of-orderness: one watermark after each batch (deterministic for bounded input).
        const w = split ? split.watermark : s.watermarks.current();
        if (w !== null && w > s.watermark) {
          s.watermark = w;
          await chain.pushWatermark(0, w);
        }
        if (!output.writable()) await this.waitWritable();
        if (yieldDue()) await yieldToEventLoop();
      }
      if (r.end) {
        s.exhausted = true;
        s.watermark = Infinity;
        await chain.pushWatermark(0, Infinity);
        this.env.exhausted(this);
        continue;
      }
      if (n === 0 && split) await this.splitIdleness(s, split);
      else if (n === 0 && s.idleness.check(now)) output.broadcast({ kind: 'idle', idle: true });
      if (n === 0) {
        await this.sleep(r.waitMs ?? 5);
      }
    }
    await this.finish();
  }

  /** Without records: an idle partition may have let the combined watermark advance, or all may be idle. */
  private async splitIdleness(s: SourceRuntime, split: { watermark: number | null; idle: boolean }): Promise<void> {
    if (split.idle !== s.idleness.idle) {
      s.idleness.idle = split.idle;
      this.output.broadcast({ kind: 'idle', idle: split.idle });
    }
    if (split.watermark !== null && split.watermark > s.watermark) {
      s.watermark = split.watermark;
      await this.chain.pushWatermark(0, split.watermark);
    }
  }

  private async runNetwork(): Promise<void> {
    const gate = this.gate!;
    const valve = this.valve!;
    const aligner = this.aligner!;
    const { chain, output } = this;
    for (;;) {
      if (this.canceled) return;
      if (this.mail.length) await this.runMail();
      const r = gate.poll();
      if (r === null) {
        await gate.waitForData();
        continue;
      }
      const item = r.item;
      switch (item.kind) {
        case 'batch':
          await chain.pushBatch(0, item.batch, this.inputOfChannel[r.channel]);
          if (!output.writable()) await this.waitWritable();
          if (yieldDue()) await yieldToEventLoop();
          break;
        case 'watermark': {
          const m = valve.onWatermark(r.channel, item.watermark);
          this.updateIdle();
          if (m !== null) await chain.pushWatermark(0, m);
          break;
        }
        case 'idle': {
          const m = valve.onIdle(r.channel, item.idle);
          this.updateIdle();
          if (m !== null) await chain.pushWatermark(0, m);
          break;
        }
        case 'barrier': {
          const b = aligner.onBarrier(r.channel, item.barrier);
          if (b) await this.checkpoint(b, aligner.firstBarrierAt, null);
          break;
        }
        case 'end': {
          this.finishedChannels[r.channel] = true;
          const m = valve.onEnd(r.channel);
          if (m !== null) await chain.pushWatermark(0, m);
          const b = aligner.onEnd();
          if (b) await this.checkpoint(b, aligner.firstBarrierAt, null);
          if (this.finishedChannels.every(Boolean)) {
            await this.finish();
            return;
          }
          break;
        }
      }
    }
  }

  /** Blocked on a full output: the time counts as back-pressured (Flink's backPressuredTimeMsPerSecond). */
  private async waitWritable(): Promise<void> {
    const t0 = performance.now();
    await this.output.waitWritable();
    this.backPressuredMs += performance.now() - t0;
  }

  /** Propagate the idle status: a task whose every active input is idle is idle itself. */
  private updateIdle(): void {
    const idle = this.valve!.allIdle;
    if (idle !== this.idleOut) {
      this.idleOut = idle;
      this.output.broadcast({ kind: 'idle', idle });
    }
  }

  private async finish(): Promise<void> {
    if (this.mail.length) await this.runMail();
    await this.chain.endInput();
    this.output.broadcast({ kind: 'end' });
    this.finished = true;
    // A checkpoint triggered while our inputs were ending will never reach us in-band: ack it now.
    const b = this.env.currentBarrier();
    if (b && b.id > this.lastSnapshotId) await this.checkpoint(b, 0, this.sourceState(b.id));
    // Mail posted while end of input was processed runs now (later mail goes through afterFinish).
    await this.runMail();
    this.env.finished(this);
  }

  /** Host request: inject barrier n (sources), or snapshot a finished subtask right away. */
  triggerCheckpoint(barrier: CheckpointBarrier): Promise<void> {
    return this.post(async () => {
      if (barrier.id <= this.lastSnapshotId) return;
      if (this.finished) {
        await this.checkpoint(barrier, 0, this.sourceState(barrier.id));
        return;
      }
      const s = this.source;
      if (!s) return; // network tasks receive barriers in-band
      await this.checkpoint(barrier, 0, this.sourceState(barrier.id));
      if (s.exhausted) s.finalBarrierDone = true;
    });
  }

  /** A source's checkpointed state: its position Sn and the largest timestamp seen. */
  private sourceState(checkpointId: number): { nodeId: string; state: unknown; watermark: number } | null {
    const s = this.source;
    if (!s) return null;
    const position = structuredClone(s.reader.position());
    if (s.reader.notifyCheckpointComplete) this.sourcePositions.set(checkpointId, position);
    const state = {
      position,
      maxTimestamp: s.watermarks.maxTimestamp === -Infinity ? null : s.watermarks.maxTimestamp,
    };
    return { nodeId: s.nodeId, state, watermark: s.watermark };
  }

  notifyCheckpointComplete(id: number): Promise<void> {
    return this.post(async () => {
      await this.chain.notifyCheckpointComplete(id);
      await this.notifySource(id);
    });
  }

  /** Positions a source gave for checkpoints not yet known complete (readers that acknowledge upstream). */
  private readonly sourcePositions = new Map<number, unknown>();

  private async notifySource(id: number): Promise<void> {
    const reader = this.source?.reader;
    const position = this.sourcePositions.get(id);
    if (!reader?.notifyCheckpointComplete || position === undefined) return;
    // Checkpoint n subsumes every older one: their positions are never needed again.
    for (const k of this.sourcePositions.keys()) if (k <= id) this.sourcePositions.delete(k);
    await reader.notifyCheckpointComplete(id, position);
  }

  /**
   * Barrier n is aligned here: the synchronous part snapshots every operator of the chain (before
   * any later record), the barrier goes downstream, and the asynchronous part writes and acks.
   */
  private async checkpoint(
    b: CheckpointBarrier,
    firstBarrierAt: number,
    source: { nodeId: string; state: unknown; watermark: number } | null,
  ): Promise<void> {
    this.lastSnapshotId = b.id;
    const t0 = Date.now();
    const startDelay = Math.max(0, (firstBarrierAt || t0) - b.timestamp);
    const alignment = firstBarrierAt ? t0 - firstBarrierAt : 0;
    const snaps: OperatorSnapshot[] = [];
    const links = this.chain.links;
    for (let i = 0; i < links.length; i++) {
      const snap = await links[i].op.snapshotState(b.id);
      // Operator state is captured now: a later change by the operator must not leak into snapshot n.
      if (snap.operator !== undefined) snap.operator = structuredClone(snap.operator);
      snaps.push(snap);
      if (links[i].events.length) await this.chain.drain(i);
    }
    if (!this.finished) this.output.broadcast({ kind: 'barrier', barrier: b });
    const syncDuration = Date.now() - t0;
    const operators = links.map((l, i) => ({ nodeId: l.nodeId, snapshot: snaps[i], watermark: l.inputWatermark }));
    void completeSnapshot(
      { barrier: b, operators, source, timing: { startDelay, alignment, syncDuration } },
      {
        subtask: this.subtask,
        parallelism: this.parallelism,
        memoryStateLimit: this.env.memoryStateLimit,
        ack: (a) => this.env.ack(a),
        decline: (id, reason, stats) => this.env.decline(id, reason, stats),
      },
    );
  }
}
