/**
 * Per-node results of the typed checks, kept between validations of the same document as it is
 * edited (the designer validates on every keystroke). Browser-safe.
 *
 * Rule: an entry is keyed by everything its computation reads, so a hit is always what a fresh
 * computation would give (test/engine/graph/validation-cache.test.ts compares them after random
 * edits):
 * - a node's output column types: its type, its config, and the types arriving on each of its
 *   input edges (in edge order, with the port), and what a sample of its data says;
 * - a node's column check (its output columns and its problems): its id, its index (problem paths
 *   name it), its type and config, and per input edge the port, the columns and their types;
 * - a node's semantics warnings: its id, index, aggregate list and input types.
 * A keystroke in one node's config therefore recomputes that node, and downstream only the nodes
 * whose inputs it changed; the SQL parser, the slow part (a 200-node job took 80-450 ms per
 * keystroke in the designer), runs for those alone.
 *
 * A cache belongs to one expression checker: results of checks run with another are not comparable.
 */
import type { ColumnType } from '../sql/index.ts';
import type { JobProblem } from './types.ts';

/** Enough for several large documents (an entry is a few hundred bytes to a few KB). */
const DEFAULT_MAX_ENTRIES = 20_000;

export interface ColumnCheckResult {
  out: readonly string[] | null;
  problems: readonly JobProblem[];
}

export interface ValidationCache {
  /** Output column types per key (see `columnTypesKey`). Stored maps are never changed. */
  readonly types: BoundedCache<ReadonlyMap<string, ColumnType>>;
  /** A node's column check per key (see `columnCheckKey`). */
  readonly columns: BoundedCache<ColumnCheckResult>;
  /** A node's semantics warnings per id, index, aggregate list and input types. */
  readonly warnings: BoundedCache<readonly JobProblem[]>;
}

export class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  hits = 0;
  misses = 0;

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Least recently used goes first: the entries of the document being edited stay.
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: string, value: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }

  get size(): number {
    return this.map.size;
  }
}

export function createValidationCache(maxEntries = DEFAULT_MAX_ENTRIES): ValidationCache {
  return {
    types: new BoundedCache(maxEntries),
    columns: new BoundedCache(maxEntries),
    warnings: new BoundedCache(maxEntries),
  };
}

/**
 * An order-preserving text for a set of column types (a `*` select emits its input in order, so
 * two inputs with the same columns in another order are different inputs).
 */
export function orderedTypesKey(types: ReadonlyMap<string, ColumnType>): string {
  let s = '';
  for (const [n, t] of types) s += `${n}\u0001${t.type}\u0001${t.precision ?? ''}\u0001${t.scale ?? ''}\u0002`;
  return s;
}

/** A config's text; configs are JSON documents (the job file's), so this is exact. */
export function configKey(config: unknown): string {
  return JSON.stringify(config) ?? 'undefined';
}
