/**
 * Session windows (Flink's WindowOperator with EventTimeSessionWindows, a merging assigner).
 * All sessions of one key live in one state entry, sorted by start and never intersecting. A record
 * opens `[ts, ts + gap)` and absorbs every session it intersects (see `findMerge`): accumulators are
 * merged, the absorbed sessions' timers are deleted and the merged session gets one timer.
 *
 * As in Flink: a record whose own new session would already be late (and merges with nothing) is
 * too late; a record that merges into a session that already fired (within allowed lateness) fires
 * the merged session again at once.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { SessionWindowAssigner } from '../../../../time/windows/index.ts';
import { findMerge } from '../../../../time/windows/index.ts';
import { sessionKey, timerKey } from './state-keys.ts';
import type { StateWrite, Timer } from './timers.ts';
import { ResultBuffer, type WindowEnv, type WindowProcessor } from './window-env.ts';

export interface Session {
  start: number;
  end: number;
  /** Time of the session's pending timer (firing, then cleanup). */
  t: number;
  a: unknown[];
}

export interface SessionKeyState {
  k: unknown[];
  s: Session[];
}

interface BatchKey {
  key: string;
  keyGroup: number;
  records: number[];
}

export class SessionWindows implements WindowProcessor {
  /** The current batch's per-record source watermarks (lateness verdicts), if it has them. */
  private sourceWatermarks: number[] | undefined;
  constructor(
    private readonly env: WindowEnv,
    private readonly assigner: SessionWindowAssigner,
  ) {}

  async processBatch(batch: RecordBatch): Promise<void> {
    const env = this.env;
    const { rows, ts } = batch;
    this.sourceWatermarks = batch.sourceWatermarks;
    const byKey = new Map<string, BatchKey>();
    for (let i = 0; i < rows.length; i++) {
      if (ts[i] !== ts[i]) throw env.noEventTime();
      const key = env.keyOf(rows[i]);
      let bk = byKey.get(key);
      if (bk === undefined) {
        bk = { key, keyGroup: env.keyGroupOf(key), records: [] };
        byKey.set(key, bk);
      }
      bk.records.push(i);
    }
    const keys = [...byKey.values()];
    const stateKeys = keys.map((k) => sessionKey(k.keyGroup, k.key));
    const stored = (await env.table.getMany(stateKeys)) as Array<SessionKeyState | undefined>;
    const writes: StateWrite[] = [];
    const refired = new ResultBuffer();
    for (let i = 0; i < keys.length; i++) {
      const next = this.addRecords(keys[i], stored[i], rows, ts, writes, refired);
      if (next !== stored[i]) writes.push([stateKeys[i], next]);
    }
    await env.table.writeMany(writes);
    refired.flush(env.out, false);
    env.flushLate();
  }

  /** Returns the key's new state (`old` itself when no record changed it). */
  private addRecords(
    bk: BatchKey,
    old: SessionKeyState | undefined,
    rows: Row[],
    ts: number[],
    writes: StateWrite[],
    refired: ResultBuffer,
  ): SessionKeyState | undefined {
    const env = this.env;
    const sw = this.sourceWatermarks;
    const aggs = env.plan.aggregates;
    const gap = this.assigner.gap;
    // Copies: the old sessions stay intact, the timers are diffed against them below.
    const sessions: Session[] = old ? old.s.map((s) => ({ start: s.start, end: s.end, t: s.t, a: s.a })) : [];
    const owned = new Set<Session>();
    let keyValues = old?.k;
    let changed = false;
    for (const i of bk.records) {
      const start = Math.floor(ts[i]);
      const m = findMerge(sessions, start, start + gap);
      if (m.count === 0 && env.isWindowLate(m.end, sw === undefined ? -Infinity : sw[i])) {
        env.late(rows[i], ts[i]);
        continue;
      }
      changed = true;
      let merged: Session;
      if (m.count === 0) {
        merged = { start: m.start, end: m.end, t: 0, a: aggs.create() };
        owned.add(merged);
      } else {
        merged = sessions[m.from];
        if (!owned.has(merged)) {
          merged = { ...merged, a: aggs.copy(merged.a) };
          owned.add(merged);
        }
        for (let k = 1; k < m.count; k++) aggs.merge(merged.a, sessions[m.from + k].a);
        merged.start = m.start;
        merged.end = m.end;
      }
      sessions.splice(m.from, m.count, merged);
      aggs.add(merged.a, rows[i]);
      if (keyValues === undefined) keyValues = env.keyValues(rows[i]);
      if (m.end - 1 <= env.watermark) {
        refired.add(m.end, bk.key, env.resultRow(m.start, m.end, keyValues, merged.a));
      }
    }
    if (!changed) return old;
    for (const s of sessions) if (owned.has(s)) s.t = env.firstTimerTime(s.end);
    // Timers: drop those of sessions that are gone or moved, add those of new or moved sessions.
    const timerOf = (s: Session): Timer => ({
      id: timerKey(bk.keyGroup, s.t, s.end, bk.key),
      keyGroup: bk.keyGroup,
      time: s.t,
      end: s.end,
      key: bk.key,
    });
    const after = new Map(sessions.map((s) => [`${s.t}/${s.end}`, s]));
    const before = new Set<string>();
    if (old) {
      for (const s of old.s) {
        const id = `${s.t}/${s.end}`;
        before.add(id);
        if (!after.has(id)) env.timers.delete(writes, timerOf(s));
      }
    }
    for (const [id, s] of after) if (!before.has(id)) env.timers.register(writes, timerOf(s));
    return { k: keyValues!, s: sessions };
  }

  async onTimers(timers: Timer[]): Promise<void> {
    const env = this.env;
    const stateKeys = [...new Set(timers.map((t) => sessionKey(t.keyGroup, t.key)))];
    const stored = (await env.table.getMany(stateKeys)) as Array<SessionKeyState | undefined>;
    // Working copies per key, updated as its due timers are handled in time order.
    const states = new Map<string, SessionKeyState | undefined>();
    for (let i = 0; i < stateKeys.length; i++) {
      const s = stored[i];
      states.set(stateKeys[i], s && { k: s.k, s: s.s.slice() });
    }
    const writes: StateWrite[] = [];
    const fired = new ResultBuffer();
    for (const tm of timers) {
      env.timers.delete(writes, tm);
      const sk = sessionKey(tm.keyGroup, tm.key);
      const state = states.get(sk);
      const idx = state ? state.s.findIndex((s) => s.end === tm.end && s.t === tm.time) : -1;
      if (!state || idx < 0) continue; // stale timer
      const session = state.s[idx];
      if (tm.time === tm.end - 1)
        fired.add(tm.end, tm.key, env.resultRow(session.start, session.end, state.k, session.a));
      const cleanup = env.cleanupTime(tm.end);
      if (cleanup <= env.watermark) {
        state.s.splice(idx, 1);
      } else {
        state.s[idx] = { ...session, t: cleanup };
        env.timers.register(writes, {
          id: timerKey(tm.keyGroup, cleanup, tm.end, tm.key),
          keyGroup: tm.keyGroup,
          time: cleanup,
          end: tm.end,
          key: tm.key,
        });
      }
    }
    for (const [sk, state] of states) {
      if (state) writes.push([sk, state.s.length > 0 ? state : undefined]);
    }
    await env.table.writeMany(writes);
    fired.flush(env.out, true);
  }
}
