/**
 * Session windows for the relational operators (`join.window`, window `topn`), with the window
 * operator's semantics (`../window/session-windows.ts`, `findMerge`): per key, a record opens
 * `[ts, ts + gap)`, which absorbs every session of that key it intersects; a session fires once,
 * when the watermark reaches end - 1, and is then dropped (these nodes have no allowed lateness).
 *
 * Lateness, as the window operator judges a session: a record that merges with no open session
 * and whose own session already ends at or below max(operator watermark, the record's source
 * watermark) is too late (dropped and counted). A record that merges into an open session is never
 * late: that session has not fired, so the merged one has not either.
 *
 * State: one entry per key in the operator's table, `gggg:S<key>` -> `{ q, s }`: `s` the key's
 * sessions sorted by start (never intersecting), each with the operator's payload; `q` the key's
 * arrival counter, handed to the payload with each record so that merged sessions can order their
 * records by arrival (ties in a Top-N, pair order in a join). The entry is deleted when its last
 * session fires. Merging moves the absorbed sessions' payloads into the merged one, inside the
 * same entry, so it is one `writeMany` and key groups stay intact across rescaling.
 *
 * The operator's timers (KeyedOperator's in-memory queue, rebuilt by `open`) hold (end - 1, state
 * key) for every session end ever set; stale hints (a session that grew or merged) are re-checked
 * on firing.
 */
import type { OperatorContext } from '../../../../contracts/operator.ts';
import type { StateTable } from '../../../../contracts/keyed-state.ts';
import { findMerge } from '../../../../time/windows/index.ts';
import { GROUP_PREFIX_WIDTH } from '../window/state-keys.ts';
import type { ExpiryQueue } from '../base/expiry-queue.ts';
import { ownedStateKey } from './keyed-support.ts';

/** What an operator keeps per session, and how it absorbs records and other sessions. */
export interface SessionPayload<P, I> {
  create(): P;
  /** Adds one record; `q` is its arrival number within its key (increasing). */
  add(p: P, item: I, q: number): void;
  /** Returns the union of two sessions' payloads (`a` may be reused). */
  merge(a: P, b: P): P;
}

export interface KeyedSession<P> {
  start: number;
  end: number;
  p: P;
}

/** The state entry of one key: its arrival counter and its sessions. */
export interface KeySessions<P> {
  q: number;
  s: Array<KeyedSession<P>>;
}

export interface SessionRecord<I> {
  /** The record key (`KeyBy.keyOf`). */
  key: string;
  ts: number;
  /** The record's lateness watermark: max(operator watermark, its source watermark). */
  watermark: number;
  item: I;
}

export interface FiredSession<P> extends KeyedSession<P> {
  key: string;
}

export class KeyedSessions<P, I> {
  /** `timers`: the operator's timer queue, which says which keys have a session to fire. */
  constructor(
    private readonly table: StateTable<KeySessions<P>>,
    private readonly gap: number,
    private readonly payload: SessionPayload<P, I>,
    private readonly what: string,
    private readonly timers: ExpiryQueue,
  ) {}

  /** Rebuilds the timers from the sessions this subtask owns (after a restore too). */
  async open(): Promise<void> {
    for await (const [k, v] of this.table.scan()) for (const s of v.s) this.timers.push(s.end - 1, k);
  }

  /** Adds records in order (one getMany, one writeMany); returns how many were too late. */
  async add(ctx: OperatorContext, records: ReadonlyArray<SessionRecord<I>>): Promise<number> {
    const byKey = new Map<string, number[]>();
    records.forEach((r, i) => {
      const sk = ownedStateKey(ctx, this.what, r.key, 'S');
      const list = byKey.get(sk);
      if (list) list.push(i);
      else byKey.set(sk, [i]);
    });
    const keys = [...byKey.keys()];
    const stored = await this.table.getMany(keys);
    const writes: Array<[string, KeySessions<P>]> = [];
    let late = 0;
    keys.forEach((sk, j) => {
      const state: KeySessions<P> = stored[j] ?? { q: 0, s: [] };
      let changed = false;
      for (const i of byKey.get(sk)!) {
        const r = records[i];
        const start = Math.floor(r.ts);
        const m = findMerge(state.s, start, start + this.gap);
        if (m.count === 0 && m.end - 1 <= r.watermark) {
          late++;
          continue;
        }
        let merged: KeyedSession<P>;
        if (m.count === 0) {
          merged = { start: m.start, end: m.end, p: this.payload.create() };
        } else {
          merged = state.s[m.from];
          for (let k = 1; k < m.count; k++) merged.p = this.payload.merge(merged.p, state.s[m.from + k].p);
        }
        if (merged.end !== m.end || m.count === 0) this.timers.push(m.end - 1, sk);
        merged.start = m.start;
        merged.end = m.end;
        state.s.splice(m.from, m.count, merged);
        this.payload.add(merged.p, r.item, state.q++);
        changed = true;
      }
      if (changed) writes.push([sk, state]);
    });
    if (writes.length > 0) await this.table.writeMany(writes);
    return late;
  }

  /**
   * Removes and returns every session of the `due` keys (those with a timer at or before
   * `watermark`) whose end - 1 is at or below `watermark`, in end, then key order (within one key
   * sessions never share an end).
   */
  async fire(due: string[], watermark: number): Promise<Array<FiredSession<P>>> {
    const stored = await this.table.getMany(due);
    const fired: Array<FiredSession<P>> = [];
    const writes: Array<[string, KeySessions<P> | undefined]> = [];
    due.forEach((sk, j) => {
      const state = stored[j];
      if (state === undefined) return; // a stale hint: the key's sessions all fired already
      const keep: Array<KeyedSession<P>> = [];
      const key = sk.slice(GROUP_PREFIX_WIDTH + 1);
      for (const s of state.s) {
        if (s.end - 1 <= watermark) fired.push({ key, start: s.start, end: s.end, p: s.p });
        else keep.push(s);
      }
      if (keep.length === state.s.length) return;
      writes.push([sk, keep.length > 0 ? { q: state.q, s: keep } : undefined]);
    });
    if (writes.length > 0) await this.table.writeMany(writes);
    return fired.sort((a, b) => a.end - b.end || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
