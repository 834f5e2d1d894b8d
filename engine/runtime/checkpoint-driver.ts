/**
 * The host's checkpoint coordination for one run (minimal; the checkpoint helper's coordinator can
 * replace it behind the same methods). Seed section 4:
 * - triggers checkpoint n every `interval` (one at a time, `minPause` after the last completion),
 *   by asking every source subtask to inject barrier n;
 * - collects one acknowledgement per operator subtask; when all arrived the checkpoint is stored
 *   (metadata last) and only then reported complete, which makes the runner send notify(n);
 * - a decline, a timeout or the task process dying fails the pending checkpoint; consecutive
 *   failures beyond `tolerableFailures` fail the job;
 * - keeps the last `retained` completed checkpoints and discards subsumed ones (never savepoints).
 */
import type { JobSettings } from '../graph/types.ts';
import type { CheckpointAck, CheckpointBarrier, CheckpointStats, SubtaskCheckpointStats, SubtaskStateSnapshot } from '../checkpoint/types.ts';
import type { CheckpointStorage, CompletedCheckpoint } from '../checkpoint/storage.ts';

interface Pending {
  barrier: CheckpointBarrier;
  states: SubtaskStateSnapshot[];
  stats: SubtaskCheckpointStats[];
  timeout: NodeJS.Timeout;
  /** Every acknowledgement arrived and the storage is writing it: it can no longer fail by task loss. */
  storing: boolean;
  waiters: Array<{ resolve: (c: CompletedCheckpoint) => void; reject: (e: Error) => void }>;
}

export interface CheckpointDriverEvents {
  /** Send barrier n to the task process. */
  trigger(barrier: CheckpointBarrier): void;
  completed(cp: CompletedCheckpoint): void;
  stats(stats: CheckpointStats): void;
  /** Too many consecutive failures: the job must fail/restart. */
  tooManyFailures(reason: string): void;
}

export class CheckpointDriver {
  private nextId: number;
  private pending: Pending | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastCompletionAt = 0;
  private consecutiveFailures = 0;
  private retained: CompletedCheckpoint[] = [];
  private history: CheckpointStats[] = [];
  private queued: Array<{ kind: 'checkpoint' | 'savepoint'; resolve: (c: CompletedCheckpoint) => void; reject: (e: Error) => void }> = [];
  latest: CompletedCheckpoint | null;
  /** Operator subtasks that must acknowledge each checkpoint. */
  total = 0;

  constructor(
    private readonly settings: JobSettings['checkpointing'],
    private readonly storage: CheckpointStorage,
    private readonly events: CheckpointDriverEvents,
    restored: CompletedCheckpoint | null,
    firstId: number,
  ) {
    this.latest = restored;
    if (restored && restored.kind === 'checkpoint') this.retained.push(restored);
    this.nextId = firstId;
  }

  get enabled(): boolean { return this.settings.interval !== null; }
  get inFlight(): boolean { return this.pending !== null; }
  get lastTriggeredId(): number { return this.nextId - 1; }
  checkpointHistory(): CheckpointStats[] { return this.history.map((s) => ({ ...s })); }

  /** Start periodic triggering (a running task process is ready). */
  start(): void {
    this.stop();
    if (!this.enabled) return;
    const tick = Math.max(5, Math.min(this.settings.interval!, 50));
    let lastTrigger = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      if (this.pending) return;
      if (this.queued.length) { this.triggerNow(this.queued[0].kind); return; }
      if (now - lastTrigger < this.settings.interval!) return;
      if (now - this.lastCompletionAt < this.settings.minPause) return;
      lastTrigger = now;
      this.triggerNow('checkpoint');
    }, tick);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Trigger right away (final checkpoint of a bounded job, savepoints). Returns its id. */
  triggerNow(kind: 'checkpoint' | 'savepoint' = 'checkpoint'): number | null {
    if (this.pending) return null;
    const barrier: CheckpointBarrier = { id: this.nextId++, timestamp: Date.now(), kind };
    const p: Pending = {
      barrier, states: [], stats: [], waiters: [], storing: false,
      timeout: setTimeout(() => this.fail(`checkpoint ${barrier.id} expired after ${this.settings.timeout} ms`), this.settings.timeout),
    };
    if (this.queued.length && this.queued[0].kind === kind) {
      const q = this.queued.shift()!;
      p.waiters.push({ resolve: q.resolve, reject: q.reject });
    }
    this.pending = p;
    this.publish(p, 'in_progress');
    this.events.trigger(barrier);
    return barrier.id;
  }

  /** A checkpoint or savepoint as soon as none is in flight; resolves when it completed. */
  request(kind: 'checkpoint' | 'savepoint'): Promise<CompletedCheckpoint> {
    return new Promise((resolve, reject) => {
      this.queued.push({ kind, resolve, reject });
      if (!this.pending) this.triggerNow(kind);
    });
  }

  async onAck(ack: CheckpointAck): Promise<void> {
    const p = this.pending;
    if (!p || ack.checkpointId !== p.barrier.id) return; // late ack of a failed checkpoint
    try {
      for (const s of ack.states) this.storage.checkSubtaskState(s);
    } catch (e) {
      this.fail((e as Error).message);
      return;
    }
    for (let i = 0; i < ack.states.length; i++) {
      const s = ack.states[i];
      // Each operator subtask counts once, whatever path its acknowledgement took.
      if (p.states.some((x) => x.operatorId === s.operatorId && x.subtask === s.subtask)) continue;
      p.states.push(s);
      if (ack.stats[i]) p.stats.push(ack.stats[i]);
    }
    if (process.env.WEIR_TRACE) process.stderr.write(`[weir trace] checkpoint ${p.barrier.id}: ${p.states.length}/${this.total} ${ack.states.map((x) => x.operatorId + '#' + x.subtask).join(',')}\n`);
    if (p.states.length < this.total) { this.publish(p, 'in_progress'); return; }
    clearTimeout(p.timeout);
    p.storing = true;
    let cp: CompletedCheckpoint;
    try {
      cp = await this.storage.store({
        id: p.barrier.id, kind: p.barrier.kind, triggerTime: p.barrier.timestamp,
        barrierTimestamp: p.barrier.timestamp, states: p.states,
      });
    } catch (e) {
      this.pending = null;
      this.failed(p, `storing checkpoint ${p.barrier.id} failed: ${(e as Error).message}`);
      return;
    }
    this.pending = null;
    this.lastCompletionAt = Date.now();
    this.consecutiveFailures = 0;
    this.latest = cp;
    this.publish(p, 'completed', undefined, cp.location);
    if (cp.kind === 'checkpoint') {
      this.retained.push(cp);
      while (this.retained.length > Math.max(1, this.settings.retained)) {
        const old = this.retained.shift()!;
        await this.storage.discard(old).catch(() => undefined);
      }
    }
    this.events.completed(cp);
    for (const w of p.waiters) w.resolve(cp);
  }

  onDecline(checkpointId: number, reason: string): void {
    if (this.pending && this.pending.barrier.id === checkpointId) this.fail(reason);
  }

  /** Fail the pending checkpoint (decline, timeout, task process gone). */
  fail(reason: string, countAsFailure = true): void {
    const p = this.pending;
    if (!p || p.storing) return;
    clearTimeout(p.timeout);
    this.pending = null;
    this.failed(p, reason, countAsFailure);
  }

  private failed(p: Pending, reason: string, countAsFailure = true): void {
    this.publish(p, 'failed', reason);
    void this.storage.discardFailed({
      id: p.barrier.id, kind: p.barrier.kind, triggerTime: p.barrier.timestamp, barrierTimestamp: p.barrier.timestamp, states: p.states,
    }).catch(() => undefined);
    for (const w of p.waiters) w.reject(new Error(`${p.barrier.kind} ${p.barrier.id} failed: ${reason}`));
    if (countAsFailure && p.barrier.kind === 'checkpoint') {
      this.consecutiveFailures++;
      if (this.consecutiveFailures > this.settings.tolerableFailures) {
        this.consecutiveFailures = 0;
        this.events.tooManyFailures(`checkpoint ${p.barrier.id} failed: ${reason}`);
      }
    }
  }

  rejectQueued(reason: string): void {
    for (const q of this.queued.splice(0)) q.reject(new Error(reason));
  }

  private publish(p: Pending, status: CheckpointStats['status'], failureReason?: string, location?: string): void {
    const stats: CheckpointStats = {
      id: p.barrier.id, kind: p.barrier.kind, status, triggerTime: p.barrier.timestamp,
      duration: status === 'in_progress' ? null : Date.now() - p.barrier.timestamp,
      acknowledged: p.states.length, total: this.total,
      checkpointedBytes: p.stats.reduce((s, x) => s + x.checkpointedBytes, 0),
      fullBytes: p.stats.reduce((s, x) => s + x.fullBytes, 0),
      subtasks: p.stats.slice(),
    };
    if (failureReason) stats.failureReason = failureReason;
    if (location) stats.location = location;
    const i = this.history.findIndex((h) => h.id === stats.id);
    if (i >= 0) this.history[i] = stats; else this.history.push(stats);
    if (this.history.length > 200) this.history.shift();
    if (status !== 'in_progress' || p.states.length === 0) this.events.stats(stats);
  }

  dispose(): void {
    this.stop();
    if (this.pending) clearTimeout(this.pending.timeout);
    this.pending = null;
  }
}
