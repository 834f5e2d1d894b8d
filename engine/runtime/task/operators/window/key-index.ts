/**
 * Finds the operator's per-key entry for a record without building the key string per record.
 *
 * The key string (`keyOf`, the one the partitioner hashes) is what state and timers use, so every
 * record of one key string must reach ONE entry. Entries live in `byKey` by that string. With a
 * single key column whose value is a string or a number, a second map by the raw value skips
 * `keyOf` altogether; several raw values may share one key string (NaN, null and a missing column
 * all encode as `[null]`; 0 and -0 as `[0]`), so a raw value is only ever mapped to the entry that
 * `byKey` holds for its key string. Both maps are caches derived from the key alone: clearing them
 * loses nothing.
 */
import type { Row } from '../../../../contracts/operator.ts';
import type { WindowKeySelector } from './config.ts';

export class KeyIndex<E> {
  private readonly byKey = new Map<string, E>();
  private readonly byValue = new Map<string | number, E>();
  private readonly single: ((row: Row) => unknown) | null;

  /** `make` builds the entry of a key string seen for the first time (from one of its rows). */
  constructor(
    private readonly selector: WindowKeySelector | null,
    private readonly make: (key: string, row: Row) => E,
  ) {
    this.single = selector?.single ?? null;
  }

  get size(): number {
    return this.byKey.size;
  }

  clear(): void {
    this.byKey.clear();
    this.byValue.clear();
  }

  entryOf(row: Row): E {
    const single = this.single;
    if (single !== null) {
      const v = single(row);
      if (typeof v === 'string' || typeof v === 'number') {
        let e = this.byValue.get(v);
        if (e === undefined) {
          e = this.byKeyString(row);
          this.byValue.set(v, e);
        }
        return e;
      }
    }
    return this.byKeyString(row);
  }

  private byKeyString(row: Row): E {
    if (this.selector === null) return this.globalEntry(row);
    const key = this.selector.keyOf(row);
    let e = this.byKey.get(key);
    if (e === undefined) {
      e = this.make(key, row);
      this.byKey.set(key, e);
    }
    return e;
  }

  /** A global window (no keyBy) has the one key ''. */
  private globalEntry(row: Row): E {
    let e = this.byKey.get('');
    if (e === undefined) {
      e = this.make('', row);
      this.byKey.set('', e);
    }
    return e;
  }
}
