/**
 * A min-heap of (time, state key): "which entries may hold something that expires at or before
 * watermark w". Entries are hints: a key may appear several times or be refreshed since; the
 * operator re-reads state before dropping anything. Kept in memory and rebuilt from a scan of the
 * state table on open (after a restore, for the key groups this subtask now owns). KeyedOperator's
 * event-time timers.
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
