/**
 * The position of a CDC source, and which changes it has already emitted.
 *
 * Invariants: the slot streams transactions in commit order, each exactly once after its
 * `confirmed` point, and a transaction's Begin carries its commit LSN (unique, increasing). So
 * "every transaction committed before `tx`, and the first `index` changes of `tx`" names exactly
 * what was emitted, and a restore skips exactly that. `safe` is the end of the last transaction
 * emitted whole: the slot may be confirmed up to it once a checkpoint holding it completes.
 *
 * A snapshot resumed after a restore is read from a newer snapshot (a temporary slot's, at `lsn`):
 * rows with keys above `key` already show every change committed before `lsn`, so those changes
 * are skipped for those keys (`resumed`, in increasing key and LSN order).
 */
import { type Lsn, parseLsn } from './lsn.ts';

export interface ResumedSnapshot {
  /** Keys above this (primary key as text) come from the snapshot at `lsn`. */
  key: string[];
  lsn: string;
}

export interface CdcPosition {
  phase: 'snapshot' | 'stream';
  slot: string;
  /** The slot's consistent point: the first snapshot's view. */
  start: string;
  /** Snapshot phase: the last key read (text), null before the first row. */
  lastKey: string[] | null;
  /** Stream phase: the commit LSN of the transaction being emitted (null before the first). */
  tx: string | null;
  /** Changes of `tx` emitted. */
  index: number;
  /** Confirmable: end of the last transaction emitted whole (or `start`). */
  safe: string;
  resumed: ResumedSnapshot[];
}

/** Compares a change's key values with a key in text form; integer keys only (see supportsResume). */
export function compareKey(values: unknown[], text: string[]): number {
  for (let i = 0; i < text.length; i++) {
    const a = BigInt(String(values[i]));
    const b = BigInt(text[i]);
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** Resuming a snapshot compares keys in TypeScript: exact for integer keys, the common case. */
export function supportsResume(keyTypes: string[]): boolean {
  return keyTypes.every((t) => t === 'smallint' || t === 'integer' || t === 'bigint');
}

/** Whether a change to the row with `key`, committed at `commit`, is already in the snapshot rows. */
export function inResumedSnapshot(resumed: ResumedSnapshot[], key: unknown[], commit: Lsn): boolean {
  for (let i = resumed.length - 1; i >= 0; i--) {
    if (compareKey(key, resumed[i].key) > 0) return commit < parseLsn(resumed[i].lsn);
  }
  return false;
}
