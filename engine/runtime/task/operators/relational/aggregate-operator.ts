/**
 * `aggregate`: group aggregation without windows (Flink's GroupAggFunction, without mini-batch).
 * Each record updates its key's accumulators and emits the change: `+I` for a key's first result,
 * then `-U` (the previous result) and `+U` (the new one); a record that leaves the result as it was
 * emits nothing. The output is a changelog whose folded table is the aggregate of all input.
 *
 * Keyed state, table `agg`: one entry per key, `{ k: key values, a: accumulators, t: largest event
 * time seen }`. `stateTtl` forgets a key once the watermark passes t + stateTtl (event time, so
 * runs are repeatable; Flink's TTL is processing time), without a retraction, as Flink does.
 * Operator state: the input watermark.
 *
 * Over a changelog input (`plan.changelog`, Flink's GroupAggFunction with retraction): +I/+U rows
 * accumulate, -U/-D rows retract (FILTER clauses judge the retracted row too). When a key's row
 * count drops to zero it emits -D of its last result and its state is deleted; a retraction for a
 * key without state (its rows expired, or never seen) is dropped, as Flink does.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend, StateTable } from '../../../../contracts/keyed-state.ts';
import type { KeyBy } from '../../../../sql/index.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import { checkRestoredWidth, type WindowAggregates } from '../window/aggregates.ts';
import { ChangelogBuffer, batchStateKeys } from './keyed-support.ts';

export const AGGREGATE_TABLE = 'agg';

export interface AggregatePlan {
  nodeId: string;
  key: KeyBy;
  aggregates: WindowAggregates;
  /** The input is a changelog: `aggregates` retract, -U/-D rows take rows back out. */
  changelog: boolean;
  /** ms, or null without TTL. */
  stateTtl: number | null;
}

interface AggEntry {
  k: unknown[];
  a: unknown[];
  t: number;
}

export class AggregateOperator extends KeyedOperator {
  private table!: StateTable<AggEntry>;
  /**
   * The expiry last queued per key, in steps of stateTtl/16: a key updated by every record queues
   * at most ~16 entries per stateTtl instead of one per record (the queue stays O(keys)).
   */
  private readonly queued = new Map<string, number>();
  private readonly buffer = new ChangelogBuffer();

  constructor(private readonly plan: AggregatePlan) {
    super(`aggregate '${plan.nodeId}'`);
  }

  private queueExpiry(key: string, at: number): void {
    const ttl = this.plan.stateTtl!;
    const step = Math.max(1, Math.ceil(ttl / 16));
    const bucket = Math.ceil(at / step) * step; // never earlier than `at`: the entry re-checks state anyway
    if ((this.queued.get(key) ?? -Infinity) >= bucket) return;
    this.queued.set(key, bucket);
    this.timers.push(bucket, key);
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    this.table = state.table<AggEntry>(AGGREGATE_TABLE);
    const ttl = this.plan.stateTtl;
    if (ttl !== null) for await (const [k, v] of this.table.scan()) this.queueExpiry(k, v.t + ttl);
  }

  private resultRow(e: AggEntry): Row {
    const row: Row = {};
    const cols = this.plan.key.columns;
    for (let i = 0; i < cols.length; i++) row[cols[i]] = e.k[i];
    this.plan.aggregates.results(e.a, row);
    return row;
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const { rows, ts, kinds } = batch;
    if (rows.length === 0) return;
    const { key, aggregates, stateTtl } = this.plan;
    const what = this.what;
    if (kinds !== undefined && !this.plan.changelog) {
      // Counting -U/-D rows as inserts would be silently wrong: the plan must know.
      throw new Error(`${what} received a changelog, but its job graph gives it an append-only input`);
    }
    const { keys: skeys, distinct, slot } = batchStateKeys(this.ctx, what, rows, (r) => key.keyOf(r));
    const entries = await this.table.getMany(distinct);
    for (const e of entries) if (e !== undefined) checkRestoredWidth(aggregates, e.a, what);
    if (stateTtl !== null) {
      // Expired but not yet cleaned (the queue works in steps): the key starts afresh, exactly at t + stateTtl.
      entries.forEach((e, j) => {
        if (e !== undefined && e.t + stateTtl <= this.watermark) entries[j] = undefined;
      });
    }
    // The result each key last showed in this batch: the next record of the key retracts it as it
    // is, instead of computing it again (most records of a batch hit a key seen before in it:
    // 200,000 of 230,000 in q17). Result rows are never changed once made.
    const shown = new Array<Row | undefined>(distinct.length);
    for (let i = 0; i < rows.length; i++) {
      const j = slot[i];
      const t = Number.isNaN(ts[i]) ? -Infinity : ts[i];
      let e = entries[j];
      const kind = kinds === undefined ? '+I' : kinds[i];
      if (kind === '-U' || kind === '-D') {
        if (e !== undefined) shown[j] = this.retract(e, rows[i], ts[i], entries, j, shown[j]);
        continue;
      }
      if (e === undefined) {
        e = { k: key.valuesOf(rows[i]), a: aggregates.create(), t };
        aggregates.add(e.a, rows[i]);
        entries[j] = e;
        const first = this.resultRow(e);
        this.buffer.add('+I', first, ts[i]);
        shown[j] = first;
      } else {
        const before = shown[j] ?? this.resultRow(e);
        aggregates.add(e.a, rows[i]);
        if (t > e.t) e.t = t;
        const after = this.resultRow(e);
        if (!sameRow(before, after)) {
          this.buffer.add('-U', before, ts[i]);
          this.buffer.add('+U', after, ts[i]);
          shown[j] = after;
        } else shown[j] = before;
      }
      if (stateTtl !== null && e.t > -Infinity) this.queueExpiry(skeys[i], e.t + stateTtl);
    }
    await this.table.writeMany(distinct.map((k, j) => [k, entries[j]] as const));
    this.buffer.flush(this.out, true);
  }

  /**
   * Retracts a row from an existing key: -U/+U of the change, or -D and no state once empty.
   * `shown`: the key's current result if known. Returns the result shown now (none once empty).
   */
  private retract(
    e: AggEntry,
    row: Row,
    t: number,
    entries: Array<AggEntry | undefined>,
    j: number,
    shown: Row | undefined,
  ): Row | undefined {
    const before = shown ?? this.resultRow(e);
    this.plan.aggregates.retract(e.a, row);
    if (this.plan.aggregates.isEmpty(e.a)) {
      entries[j] = undefined;
      this.buffer.add('-D', before, t);
      return undefined;
    }
    const after = this.resultRow(e);
    if (sameRow(before, after)) return before;
    this.buffer.add('-U', before, t);
    this.buffer.add('+U', after, t);
    return after;
  }

  /** State TTL: drops the keys whose last event time + stateTtl the watermark has passed. */
  protected override async onTimers(due: string[], watermark: number): Promise<void> {
    const ttl = this.plan.stateTtl!;
    const entries = await this.table.getMany(due);
    const writes: Array<readonly [string, AggEntry | undefined]> = [];
    due.forEach((k, i) => {
      const e = entries[i];
      if (this.queued.get(k)! <= watermark) this.queued.delete(k);
      if (e === undefined) return;
      if (e.t + ttl <= watermark) writes.push([k, undefined]);
      else this.queueExpiry(k, e.t + ttl); // refreshed since: look again at its new expiry
    });
    if (writes.length) await this.table.writeMany(writes);
  }
}

/** Results are flat rows of plain values (numbers, strings, null). */
function sameRow(a: Row, b: Row): boolean {
  for (const k in a) if (!Object.is(a[k], b[k])) return false;
  return true;
}
