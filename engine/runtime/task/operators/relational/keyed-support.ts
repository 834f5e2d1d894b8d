/**
 * What the relational operators (aggregate, topn, joins) share beyond their base (KeyedOperator in
 * ../base): the key-group check of a record's key and a changelog batch builder.
 */
import type { OperatorContext, OperatorOutput, RecordBatch, Row, RowKind } from '../../../../contracts/operator.ts';
import type { StateTable } from '../../../../contracts/keyed-state.ts';
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
 * Each distinct key of a batch once, in first-seen order (`keys`, for one getMany / writeMany per
 * batch), and each row's position in it (`slot[i]`; -1 for a row that `keyAt` skips with null).
 */
export function distinctKeys(count: number, keyAt: (i: number) => string | null): { keys: string[]; slot: number[] } {
  const keys: string[] = [];
  const slot = new Array<number>(count);
  const index = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const k = keyAt(i);
    if (k === null) {
      slot[i] = -1;
      continue;
    }
    let j = index.get(k);
    if (j === undefined) {
      j = keys.length;
      index.set(k, j);
      keys.push(k);
    }
    slot[i] = j;
  }
  return { keys, slot };
}

/**
 * The state keys of a batch's rows (`keys[i]`), each distinct key once in first-seen order
 * (`distinct`), and each row's position in it (`slot[i]`).
 */
export function batchStateKeys(
  ctx: OperatorContext,
  what: string,
  rows: readonly Row[],
  keyOf: (row: Row) => string,
): { keys: string[]; distinct: string[]; slot: number[] } {
  const { keys: recordKeys, slot } = distinctKeys(rows.length, (i) => keyOf(rows[i]));
  const distinct = recordKeys.map((k) => ownedStateKey(ctx, what, k));
  return { keys: slot.map((j) => distinct[j]), distinct, slot };
}

/**
 * A two-input join's state of the given record keys (one getMany): the state keys of the batch's
 * side (`gggg:L<key>` for the left input, `gggg:R<key>` for the right), its stored rows (`mine`)
 * and the other side's (`theirs`), [] where there are none.
 */
export async function readJoinSides<T>(
  ctx: OperatorContext,
  what: string,
  table: StateTable<T[]>,
  keys: readonly string[],
  left: boolean,
): Promise<{ ownKeys: string[]; otherKeys: string[]; mine: T[][]; theirs: T[][] }> {
  const ownKeys = keys.map((k) => ownedStateKey(ctx, what, k, left ? 'L' : 'R'));
  const otherKeys = keys.map((k) => ownedStateKey(ctx, what, k, left ? 'R' : 'L'));
  const got = await table.getMany([...ownKeys, ...otherKeys]);
  const mine = got.slice(0, keys.length).map((x) => x ?? []);
  const theirs = got.slice(keys.length).map((x) => x ?? []);
  return { ownKeys, otherKeys, mine, theirs };
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
