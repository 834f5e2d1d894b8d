/**
 * Seeded random changes to a table while a CDC job reads it: small transactions of inserts,
 * updates and deletes, until stopped. The driver is the table's only writer, so the table's final
 * state is the reference, and a changelog that lost or doubled any change cannot materialize to it.
 *
 * With `phases`, the writer works in event-time phases for a windowed job: phase p (a fixed number
 * of transactions) inserts rows whose `at` lies in window p ([base + p*windowMs, +windowMs)) and
 * updates/deletes only rows it inserted in phase p, keeping `at` inside window p. A source whose
 * maxOutOfOrderness is at least one window then closes window p only once phase p+2 has begun, so
 * no change is ever late, whatever the kill timing, and the final table grouped by window is the
 * windows' exact reference.
 */
import pg from 'pg';
import { rng, sleep } from '../support/run-helpers.ts';

export const CHAOS_START = Date.UTC(2024, 0, 1);

export class PgChangeDriver {
  private stopped = false;
  private done: Promise<void> = Promise.resolve();
  transactions = 0;
  changes = { insert: 0, update: 0, delete: 0 };
  /** Phased mode: per phase, whether it updated and deleted rows (the windows' guard). */
  phaseChanges = new Map<number, { update: number; delete: number }>();
  private live: number[];
  private phase = -1;
  private readonly random: () => number;

  constructor(
    private readonly url: string,
    seed: number,
    liveIds: number[],
    private nextId: number,
    private readonly phases?: { base: number; windowMs: number; transactionsPerPhase: number },
  ) {
    this.random = rng(seed);
    this.live = [...liveIds];
  }

  /** The id the next insert would take (a row added after stop() takes it). */
  get next(): number {
    return this.nextId;
  }

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  private async loop(): Promise<void> {
    const c = new pg.Client(this.url);
    await c.connect();
    try {
      while (!this.stopped) {
        if (this.phases) {
          const p = Math.floor(this.transactions / this.phases.transactionsPerPhase);
          if (p !== this.phase) {
            // A new phase touches only its own rows: the previous phases' rows are left as they are.
            this.phase = p;
            this.live = [];
            this.phaseChanges.set(p, { update: 0, delete: 0 });
          }
        }
        await c.query('BEGIN');
        const n = 1 + Math.floor(this.random() * 4);
        for (let i = 0; i < n; i++) await this.change(c);
        await c.query('COMMIT');
        this.transactions++;
        await sleep(2); // pacing a writer, not waiting for a state
      }
    } finally {
      await c.end();
    }
  }

  private async change(c: pg.Client): Promise<void> {
    const r = this.random();
    const k = `k${Math.floor(this.random() * 5)}`;
    const v = Math.floor(this.random() * 1000);
    const ph = this.phases;
    if (r < 0.45 || this.live.length < (ph ? 3 : 10)) {
      const id = this.nextId++;
      const at = new Date(ph ? this.phaseTime(ph) : CHAOS_START + id * 10 + Math.floor(this.random() * 500));
      await c.query('INSERT INTO events (id, k, v, at) VALUES ($1, $2, $3, $4)', [id, k, v, at]);
      this.live.push(id);
      this.changes.insert++;
    } else if (r < 0.8) {
      const id = this.live[Math.floor(this.random() * this.live.length)];
      if (ph) {
        // The key, the value and the event time change, the time staying inside this phase's window.
        await c.query('UPDATE events SET k = $2, v = $3, at = $4 WHERE id = $1', [
          id,
          k,
          v,
          new Date(this.phaseTime(ph)),
        ]);
        this.phaseChanges.get(this.phase)!.update++;
      } else await c.query('UPDATE events SET k = $2, v = $3 WHERE id = $1', [id, k, v]);
      this.changes.update++;
    } else {
      const i = Math.floor(this.random() * this.live.length);
      const id = this.live[i];
      this.live[i] = this.live[this.live.length - 1];
      this.live.pop();
      await c.query('DELETE FROM events WHERE id = $1', [id]);
      this.changes.delete++;
      if (ph) this.phaseChanges.get(this.phase)!.delete++;
    }
  }

  private phaseTime(ph: { base: number; windowMs: number }): number {
    return ph.base + this.phase * ph.windowMs + Math.floor(this.random() * ph.windowMs);
  }
}
