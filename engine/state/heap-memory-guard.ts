/**
 * The memory limit of the heap state backends (`memory` and `fs`): their keyed state lives on the
 * task process's JavaScript heap, which V8 caps (`heap_size_limit`, set by --max-old-space-size).
 * A job whose state outgrows it would otherwise spend ever longer in full garbage collections
 * (the process thrashes, throughput falls to nothing) until V8 aborts with an out-of-memory crash
 * that names no operator. The guard fails the job first, with an error naming the operator, the
 * state's size and the limit.
 *
 * Rule: after every `CHECK_EVERY` state writes the heap's used size is read (one cheap V8 call);
 * when it stays above `limitBytes` for `STRIKES` checks in a row (garbage not yet collected can
 * push a single reading over), or once above the limit by more than `limitBytes / 8` (no time
 * left to wait: a sliding-window job went from 149 MB to V8's abort at 160 MB within two checks
 * 24K writes apart), `HeapStateLimitError` is thrown from the write. The default limit
 * is 80% of V8's old-space limit (`heap_size_limit` less the young generation's 48 MB): at a
 * 160 MB old space, a window job's full collections took 200-440 ms each from ~155 MB on, and V8
 * aborted at 160 MB (the test's job; --trace-gc).
 */
import { getHeapStatistics } from 'node:v8';

const CHECK_EVERY = 4096;
const STRIKES = 2;
export const DEFAULT_HEAP_LIMIT_FRACTION = 0.8;
/** V8's young generation on 64-bit (3 x 16 MB semi-spaces), included in heap_size_limit. */
const YOUNG_GENERATION_BYTES = 48 * 1024 * 1024;

/** The default limit: DEFAULT_HEAP_LIMIT_FRACTION of the old space V8 allows this process. */
export function defaultHeapStateLimit(): number {
  const total = getHeapStatistics().heap_size_limit;
  const oldSpace = total - Math.min(YOUNG_GENERATION_BYTES, total / 4);
  return Math.floor(oldSpace * DEFAULT_HEAP_LIMIT_FRACTION);
}

export class HeapStateLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeapStateLimitError';
  }
}

export interface HeapMemoryGuardOptions {
  /** Who owns the state, for the error: the node id and subtask. */
  operatorId: string;
  subtask: number;
  backend: 'memory' | 'fs';
  /** Used heap bytes the state may fill the process to. Default: `defaultHeapStateLimit()`. */
  limitBytes?: number;
}

export class HeapMemoryGuard {
  readonly limitBytes: number;
  private writes = 0;
  private strikes = 0;

  constructor(private readonly opts: HeapMemoryGuardOptions) {
    this.limitBytes = opts.limitBytes ?? defaultHeapStateLimit();
  }

  /** Counts `n` writes; every CHECK_EVERY writes, throws if the heap stays past the limit. */
  afterWrites(n: number, entries: () => number): void {
    this.writes += n;
    if (this.writes < CHECK_EVERY) return;
    this.writes = 0;
    const stats = getHeapStatistics();
    if (stats.used_heap_size <= this.limitBytes) {
      this.strikes = 0;
      return;
    }
    if (++this.strikes < STRIKES && stats.used_heap_size < this.limitBytes * 1.125) return;
    const { operatorId, subtask, backend } = this.opts;
    throw new HeapStateLimitError(
      `operator '${operatorId}' subtask ${subtask}: keyed state of ${entries().toLocaleString('en-US')} entries has ` +
        `filled the task process's heap to ${mb(stats.used_heap_size)}, past the heap state limit of ${mb(this.limitBytes)} ` +
        `(the process's V8 heap limit is ${mb(stats.heap_size_limit)}; the state limit defaults to ` +
        `${Math.round(DEFAULT_HEAP_LIMIT_FRACTION * 100)}% of its old space). ` +
        `The '${backend}' state backend keeps all keyed state on the JavaScript heap: use stateBackend 'rocksdb' ` +
        `for state this large (or fewer keys, shorter windows, a higher parallelism).`,
    );
  }
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
}
