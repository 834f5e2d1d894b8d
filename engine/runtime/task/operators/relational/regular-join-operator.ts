/**
 * `join`: a regular (unbounded) equi-join of two append-only inputs, inner or outer (Flink's
 * StreamingJoinOperator). Every row is kept in keyed state with the number of rows of the other
 * side it has matched; a new row joins every stored row of the other side with its key.
 *
 * Outer joins: a row of a preserved side (left for `left`, right for `right`, both for `full`) that
 * has no match yet is emitted padded with NULLs (+I); when its first match arrives, the padded row
 * is retracted (-D) before the joined row is inserted (+I). So an outer join's output is a
 * changelog; an inner join's is append-only. Folded, the output is the SQL join of all input.
 *
 * `stateTtl` (event time, so runs repeat; Flink's is processing time): a row is forgotten once the
 * watermark passes its time + stateTtl, silently, as Flink's TTL. Without it state grows with the
 * input, as in Flink.
 *
 * Keyed state, table `join`: `gggg:L<key>` / `gggg:R<key>` -> `[{ r: row, t: ts, m: matches }]`.
 * Operator state: the input watermark.
 */
import type { RecordBatch, Row } from '../../../../contracts/operator.ts';
import type { KeyedStateBackend, StateTable } from '../../../../contracts/keyed-state.ts';
import type { JoinKind } from '../../../../graph/types.ts';
import type { KeyBy } from '../../../../sql/index.ts';
import type { CompiledJoinSelect } from '../../../../sql/join-select.ts';
import { KeyedOperator } from '../base/keyed-operator.ts';
import { ChangelogBuffer, distinctKeys, readJoinSides } from './keyed-support.ts';

export const REGULAR_JOIN_TABLE = 'join';

export interface RegularJoinPlan {
  nodeId: string;
  kind: JoinKind;
  leftKey: KeyBy;
  rightKey: KeyBy;
  select: CompiledJoinSelect;
  stateTtl: number | null;
}

interface Stored {
  r: Row;
  t: number;
  m: number;
}

export class RegularJoinOperator extends KeyedOperator {
  private table!: StateTable<Stored[]>;
  private readonly buffer = new ChangelogBuffer();
  private readonly preserveLeft: boolean;
  private readonly preserveRight: boolean;

  constructor(private readonly plan: RegularJoinPlan) {
    super(`join '${plan.nodeId}'`);
    this.preserveLeft = plan.kind === 'left' || plan.kind === 'full';
    this.preserveRight = plan.kind === 'right' || plan.kind === 'full';
  }

  protected async openState(state: KeyedStateBackend): Promise<void> {
    this.table = state.table<Stored[]>(REGULAR_JOIN_TABLE);
    const ttl = this.plan.stateTtl;
    if (ttl !== null)
      for await (const [k, rows] of this.table.scan()) for (const s of rows) this.timers.push(s.t + ttl, k);
  }

  private joined(left: boolean, row: Row, other: Row | null): Row {
    return left ? this.plan.select.project(row, other) : this.plan.select.project(other, row);
  }

  async processBatch(batch: RecordBatch, input: number): Promise<void> {
    const { rows, ts } = batch;
    if (rows.length === 0) return;
    const left = input === 0;
    const key = left ? this.plan.leftKey : this.plan.rightKey;
    const preserveOwn = left ? this.preserveLeft : this.preserveRight;
    const preserveOther = left ? this.preserveRight : this.preserveLeft;
    const { keys, slot } = distinctKeys(rows.length, (i) => key.keyOf(rows[i]));
    const { ownKeys, otherKeys, mine, theirs } = await readJoinSides(this.ctx, this.what, this.table, keys, left);
    const otherChanged = new Array<boolean>(keys.length).fill(false);
    const ttl = this.plan.stateTtl;
    for (let i = 0; i < rows.length; i++) {
      const j = slot[i];
      const row = rows[i];
      const t = Number.isNaN(ts[i]) ? -Infinity : ts[i];
      const others = theirs[j];
      for (const o of others) {
        if (preserveOther && o.m === 0) this.buffer.add('-D', this.joined(!left, o.r, null), o.t);
        o.m++;
        this.buffer.add('+I', this.joined(left, row, o.r), t > o.t ? t : o.t);
      }
      if (others.length > 0 && preserveOther) otherChanged[j] = true;
      if (others.length === 0 && preserveOwn) this.buffer.add('+I', this.joined(left, row, null), t);
      mine[j].push({ r: row, t, m: others.length });
      if (ttl !== null && t > -Infinity) this.timers.push(t + ttl, ownKeys[j]);
    }
    const writes: Array<readonly [string, Stored[]]> = ownKeys.map((k, j) => [k, mine[j]] as const);
    otherKeys.forEach((k, j) => {
      if (otherChanged[j]) writes.push([k, theirs[j]]);
    });
    await this.table.writeMany(writes);
    this.buffer.flush(this.out, this.preserveLeft || this.preserveRight);
  }

  /** State TTL: forgets the rows whose time + stateTtl the watermark has passed. */
  protected override async onTimers(due: string[], watermark: number): Promise<void> {
    const ttl = this.plan.stateTtl!;
    const entries = await this.table.getMany(due);
    const writes: Array<readonly [string, Stored[] | undefined]> = [];
    due.forEach((k, i) => {
      const rows = entries[i];
      if (rows === undefined) return;
      const keep = rows.filter((s) => s.t + ttl > watermark);
      if (keep.length !== rows.length) writes.push([k, keep.length > 0 ? keep : undefined]);
    });
    if (writes.length) await this.table.writeMany(writes);
  }
}
