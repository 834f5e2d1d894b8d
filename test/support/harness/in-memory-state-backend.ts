/**
 * A deliberately small KeyedStateBackend for operator tests: plain Maps on the heap, snapshots
 * inline as JSON. It keeps the contract's semantics exactly (ordered bounded scans, snapshots that
 * later writes cannot change, restore filtered by key-group range) so that an operator tested on it
 * behaves the same on the real backends; the harness tests also run on those to prove it.
 */
import type {
  KeyedStateBackend,
  KeyedStateSnapshot,
  KeyGroupRange,
  StateSize,
  StateTable,
} from '../../../engine/contracts/keyed-state.ts';
import { keyGroupOfStateKey } from '../../../engine/state/keygroups.ts';

interface InlineState {
  tables: Record<string, Array<[string, unknown]>>;
}

class InMemoryTable<V> implements StateTable<V> {
  readonly entries = new Map<string, V>();
  private sorted: string[] | null = null;

  constructor(readonly name: string) {}

  async getMany(keys: readonly string[]): Promise<Array<V | undefined>> {
    return keys.map((k) => this.entries.get(k));
  }

  async writeMany(entries: ReadonlyArray<readonly [string, V | undefined]>): Promise<void> {
    for (const [k, v] of entries) {
      if (v === undefined) {
        if (this.entries.delete(k)) this.sorted = null;
      } else {
        if (!this.entries.has(k)) this.sorted = null;
        this.entries.set(k, v);
      }
    }
  }

  async *scan(range: { gte?: string; lt?: string } = {}): AsyncIterable<[string, V]> {
    if (this.sorted === null) this.sorted = [...this.entries.keys()].sort(compareCodeUnits);
    const keys = this.sorted;
    let i = range.gte === undefined ? 0 : lowerBound(keys, range.gte);
    for (; i < keys.length; i++) {
      const k = keys[i];
      if (range.lt !== undefined && k >= range.lt) return;
      const v = this.entries.get(k);
      // Written while iterating: the iteration reflects deletes, as a live RocksDB iterator would not
      // guarantee; callers must not depend on either.
      if (v !== undefined) yield [k, v];
    }
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class InMemoryKeyedStateBackend implements KeyedStateBackend {
  readonly kind = 'memory' as const;
  private readonly tables = new Map<string, InMemoryTable<unknown>>();

  constructor(private readonly keyGroupRange: KeyGroupRange) {}

  table<V = unknown>(name: string): StateTable<V> {
    let t = this.tables.get(name);
    if (!t) {
      t = new InMemoryTable<unknown>(name);
      this.tables.set(name, t);
    }
    return t as unknown as StateTable<V>;
  }

  async size(): Promise<StateSize> {
    let entries = 0;
    let liveBytes = 0;
    for (const t of this.tables.values()) {
      for (const [k, v] of t.entries) {
        entries++;
        liveBytes += k.length * 2 + JSON.stringify(v).length * 2;
      }
    }
    return { liveBytes, diskBytes: 0, entries };
  }

  snapshot(): () => Promise<KeyedStateSnapshot> {
    // Serialize now: the synchronous part must capture a view that later writes cannot change.
    const text = JSON.stringify(this.toInline());
    const range = { ...this.keyGroupRange };
    return async () => ({
      backend: 'memory',
      keyGroupRange: range,
      inline: JSON.parse(text) as InlineState,
      checkpointedBytes: text.length,
      fullBytes: text.length,
    });
  }

  async restore(snapshots: KeyedStateSnapshot[], range: KeyGroupRange): Promise<void> {
    for (const snap of snapshots) {
      const inline = snap.inline as InlineState | undefined;
      if (!inline || typeof inline !== 'object' || !inline.tables) {
        throw new Error(
          `InMemoryKeyedStateBackend can only restore its own inline snapshots (got backend '${snap.backend}')`,
        );
      }
      for (const [name, entries] of Object.entries(inline.tables)) {
        // Copies: operators may change restored values in place, the snapshot must stay intact.
        const keep = entries
          .filter(([k]) => {
            const g = keyGroupOfStateKey(k);
            return g >= range.start && g <= range.end;
          })
          .map(([k, v]): [string, unknown] => [k, structuredClone(v)]);
        await this.table(name).writeMany(keep);
      }
    }
  }

  async dispose(): Promise<void> {
    this.tables.clear();
  }

  private toInline(): InlineState {
    const tables: InlineState['tables'] = {};
    for (const [name, t] of this.tables) tables[name] = [...t.entries];
    return { tables };
  }
}
