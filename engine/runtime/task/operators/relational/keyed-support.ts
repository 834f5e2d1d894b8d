/**
 * What the relational operators (aggregate, topn, join.interval) share: the key-group check of a
 * record's key, a changelog batch builder, the operator-state watermark, and an expiry queue for
 * state that the watermark retires (join buffers, aggregate TTL).
 */
import type { OperatorContext, OperatorOutput, RecordBatch, Row, RowKind } from '../../../../contracts/operator.ts';
import { keyGroupOf, stateKey } from '../../../../state/keygroups.ts';

/**
 * The state key of a record key (`tag` is written before the key, inside the key group prefix),
 * after checking that this subtask owns the key's group.
 */
export function ownedStateKey(ctx: OperatorContext, what: string, key: string, tag = ''): string {
  const g = keyGroupOf(key, ctx.maxParallelism);
  const r = ctx.keyGroupRange;
  if (g < r.start || g > r.end) {
    throw new Error(
      `${what} subtask ${ctx.subtask} received key ${JSON.stringify(key)} of key group ${g}, ` +
        `outside its key groups ${r.start}-${r.end}: its input is not partitioned by its key`,
    );
  }
  return stateKey(g, tag + key);
}

/**
 * The state keys of a batch's rows (`keys[i]`), each distinct key once in first-seen order
 * (`distinct`, for one getMany / writeMany per batch), and each row's position in it (`slot[i]`).
 */
export function batchStateKeys(
  ctx: OperatorContext,
  what: string,
  rows: readonly Row[],
  keyOf: (row: Row) => string,
): { keys: string[]; distinct: string[]; slot: number[] } {
  const keys = new Array<string>(rows.length);
  const slot = new Array<number>(rows.length);
  const distinct: string[] = [];
  const index = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const sk = ownedStateKey(ctx, what, keyOf(rows[i]));
    keys[i] = sk;
    let j = index.get(sk);
    if (j === undefined) {
      j = distinct.length;
      index.set(sk, j);
      distinct.push(sk);
    }
    slot[i] = j;
  }
  return { keys, distinct, slot };
}

/** Collects output rows with their kinds; `flush` emits them as one batch (kinds only if needed). */
export class ChangelogBuffer {
  private rows: Row[] = [];
  private ts: number[] = [];
  private kinds: RowKind[] = [];

  add(kind: RowKind, row: Row, ts: number): void {
    this.rows.push(row);
    this.ts.push(ts);
    this.kinds.push(kind);
  }

  flush(out: OperatorOutput, changelog: boolean): void {
    if (this.rows.length === 0) return;
    const batch: RecordBatch = { rows: this.rows, ts: this.ts };
    if (changelog) batch.kinds = this.kinds;
    out.emit(batch);
    this.rows = [];
    this.ts = [];
    this.kinds = [];
  }
}

/** Operator state of the relational operators: their input watermark (null = -Infinity). */
export interface WatermarkState {
  watermark: number | null;
}

export function encodeWm(w: number): number | null {
  return w === -Infinity ? null : w === Infinity ? Number.MAX_VALUE : w;
}

/** After a rescale several old subtasks' states arrive: the smallest watermark is safe. */
export function restoredWatermark(states: unknown[] | undefined): number {
  let w = Infinity;
  let any = false;
  for (const s of states ?? []) {
    if (s === null || typeof s !== 'object' || !('watermark' in s)) continue;
    any = true;
    const v = (s as WatermarkState).watermark;
    const num = typeof v === 'number' ? (v === Number.MAX_VALUE ? Infinity : v) : -Infinity;
    if (num < w) w = num;
  }
  return any ? w : -Infinity;
}

/**
 * A min-heap of (time, state key): "which entries may hold something that expires at or before
 * watermark w". Entries are hints: a key may appear several times or be refreshed since; the
 * operator re-reads state before dropping anything. Kept in memory and rebuilt from a scan of the
 * state table on open (after a restore, for the key groups this subtask now owns).
 */
export class ExpiryQueue {
  private times: number[] = [];
  private keys: string[] = [];

  get size(): number {
    return this.times.length;
  }

  push(time: number, key: string): void {
    const t = this.times,
      k = this.keys;
    let i = t.length;
    t.push(time);
    k.push(key);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (t[p] <= time) break;
      t[i] = t[p];
      k[i] = k[p];
      i = p;
    }
    t[i] = time;
    k[i] = key;
  }

  /** Distinct keys with an entry at or before `w`, removed from the queue. */
  popDue(w: number): string[] {
    const due = new Set<string>();
    while (this.times.length > 0 && this.times[0] <= w) due.add(this.pop());
    return [...due];
  }

  private pop(): string {
    const t = this.times,
      k = this.keys;
    const top = k[0];
    const lastT = t.pop()!,
      lastK = k.pop()!;
    const n = t.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        let mt = lastT;
        if (l < n && t[l] < mt) {
          m = l;
          mt = t[l];
        }
        if (r < n && t[r] < mt) {
          m = r;
          mt = t[r];
        }
        if (m === i) break;
        t[i] = t[m];
        k[i] = k[m];
        i = m;
      }
      t[i] = lastT;
      k[i] = lastK;
    }
    return top;
  }
}
