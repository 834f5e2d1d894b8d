/**
 * Promise wrapper over the npm `rocksdb` binding (abstract-leveldown API, callback based). One
 * promise per call; callers batch (one `batch`/`getMany` per record batch, never per record).
 * Keys and values are Buffers throughout.
 */
import { createRequire } from 'node:module';

interface LevelIterator {
  next(cb: (err: Error | null, key?: Buffer, value?: Buffer) => void): void;
  seek(target: Buffer): void;
  end(cb: (err?: Error | null) => void): void;
}

export interface BatchOp {
  type: 'put' | 'del';
  key: Buffer;
  value?: Buffer;
}

interface LevelDown {
  open(opts: Record<string, unknown>, cb: (err?: Error | null) => void): void;
  close(cb: (err?: Error | null) => void): void;
  getMany(
    keys: Buffer[],
    opts: Record<string, unknown>,
    cb: (err: Error | null, values: Array<Buffer | undefined>) => void,
  ): void;
  batch(ops: BatchOp[], opts: Record<string, unknown>, cb: (err?: Error | null) => void): void;
  iterator(opts: Record<string, unknown>): LevelIterator;
  approximateSize(start: Buffer, end: Buffer, cb: (err: Error | null, size: number) => void): void;
  compactRange(start: Buffer, end: Buffer, cb: (err?: Error | null) => void): void;
  getProperty(name: string): string;
}

interface RocksDBModule {
  (location: string): LevelDown;
  destroy(location: string, cb: (err?: Error | null) => void): void;
}

/**
 * The package's native chained-batch functions, called directly. `db.batch(ops)` reads `type`,
 * `key` and `value` off one JS object per op on the JS thread (napi property lookups), and the
 * ChainedBatch wrapper re-validates every key; both showed in profiles as the largest self time of
 * RocksDB loads and restores. These take the Buffer (or string) arguments as they are.
 */
interface NativeBatchBinding {
  batch_init(db: unknown): unknown;
  batch_put(batch: unknown, key: Uint8Array, value: Uint8Array | string): void;
  batch_del(batch: unknown, key: Uint8Array): void;
  batch_write(batch: unknown, opts: Record<string, unknown>, cb: (err?: Error | null) => void): void;
}

const require = createRequire(import.meta.url);
let rocksdbModule: RocksDBModule | undefined;
let bindingModule: NativeBatchBinding | undefined;
function rocksdb(): RocksDBModule {
  rocksdbModule ??= require('rocksdb') as RocksDBModule;
  return rocksdbModule;
}
function binding(): NativeBatchBinding {
  bindingModule ??= require('rocksdb/binding') as NativeBatchBinding;
  return bindingModule;
}

/**
 * Memtable size. The package's default (4 MB) makes a 1M-key load or restore flush and compact
 * L0 files every few thousand writes; 32 MB halved load and restore times in bench/state.ts while
 * keeping a subtask's RocksDB memory (two memtables at most, plus the 8 MB block cache) far below
 * what the heap backends need for the same state.
 */
export const WRITE_BUFFER_BYTES = 32 << 20;

function cbPromise<T = void>(run: (cb: (err?: Error | null, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    run((err, value) => (err ? reject(err) : resolve(value as T)));
  });
}

export interface IteratorOptions {
  gte?: Buffer;
  lt?: Buffer;
  /** Bytes fetched per native round trip (default 1 MB: scans are bulk reads). */
  highWaterMark?: number;
  keys?: boolean;
  values?: boolean;
}

/**
 * An iterator over a point-in-time view: the binding takes an implicit RocksDB snapshot when the
 * iterator is created, so later writes are invisible to it (this is what snapshots rely on).
 */
export class NativeIterator {
  private ended = false;
  constructor(private readonly it: LevelIterator) {}

  next(): Promise<[Buffer, Buffer] | undefined> {
    return new Promise((resolve, reject) => {
      this.it.next((err, key, value) => {
        if (err) reject(err);
        else resolve(key === undefined ? undefined : [key, value as Buffer]);
      });
    });
  }

  /**
   * Up to one native batch (~highWaterMark bytes) of entries per promise, in key order; empty at the
   * end. Bulk scans use this instead of `next()` to avoid a promise per entry: after one `next()`
   * the binding's iterator holds the rest of its native batch in `cache` (rocksdb 5.x keeps it
   * reversed for `pop()`), which is drained synchronously here.
   */
  async nextBatch(): Promise<Array<[Buffer, Buffer]>> {
    const first = await this.next();
    if (!first) return [];
    const out: Array<[Buffer, Buffer]> = [first];
    const cache = (this.it as unknown as { cache?: unknown }).cache;
    if (Array.isArray(cache)) {
      while (cache.length >= 2) {
        const key = cache.pop() as Buffer;
        const value = cache.pop() as Buffer;
        out.push([key, value]);
      }
    }
    return out;
  }

  /** Positions at the first key >= target; the next `next()` returns it. */
  seek(target: Buffer): void {
    this.it.seek(target);
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await cbPromise((cb) => this.it.end(cb));
  }
}

export class NativeDb {
  private constructor(
    private readonly db: LevelDown,
    readonly location: string,
  ) {}

  static async open(location: string): Promise<NativeDb> {
    const db = rocksdb()(location);
    await cbPromise((cb) =>
      db.open({ createIfMissing: true, errorIfExists: false, writeBufferSize: WRITE_BUFFER_BYTES }, cb),
    );
    return new NativeDb(db, location);
  }

  static destroy(location: string): Promise<void> {
    return cbPromise((cb) => rocksdb().destroy(location, cb));
  }

  getMany(keys: Buffer[]): Promise<Array<Buffer | undefined>> {
    return cbPromise<Array<Buffer | undefined>>((cb) => this.db.getMany(keys, { asBuffer: true }, cb));
  }

  batch(ops: BatchOp[]): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    return cbPromise((cb) => this.db.batch(ops, {}, cb));
  }

  /** A write batch filled by direct native calls (no op objects); `write()` applies it atomically. */
  writeBatch(): NativeWriteBatch {
    return new NativeWriteBatch((this.db as unknown as { context: unknown }).context);
  }

  iterator(opts: IteratorOptions = {}): NativeIterator {
    const o: Record<string, unknown> = {
      keyAsBuffer: true,
      valueAsBuffer: true,
      highWaterMark: opts.highWaterMark ?? 1 << 20,
      keys: opts.keys ?? true,
      values: opts.values ?? true,
    };
    if (opts.gte) o.gte = opts.gte;
    if (opts.lt) o.lt = opts.lt;
    return new NativeIterator(this.db.iterator(o));
  }

  approximateSize(start: Buffer, end: Buffer): Promise<number> {
    return cbPromise<number>((cb) => this.db.approximateSize(start, end, cb));
  }

  compactRange(start: Buffer, end: Buffer): Promise<void> {
    return cbPromise((cb) => this.db.compactRange(start, end, cb));
  }

  /** A numeric RocksDB property (`rocksdb.estimate-num-keys`, ...); 0 when unavailable. */
  numericProperty(name: string): number {
    try {
      const n = Number(this.db.getProperty(name));
      return Number.isFinite(n) ? n : 0;
    } catch {
      return 0;
    }
  }

  close(): Promise<void> {
    return cbPromise((cb) => this.db.close(cb));
  }
}

/**
 * One RocksDB WriteBatch. `put`/`del` copy the bytes into the native batch at once, so the caller
 * may reuse its buffers; a string value is written as UTF-8. Written atomically by `write()`.
 */
export class NativeWriteBatch {
  private readonly batch: unknown;
  private count = 0;
  constructor(db: unknown) {
    this.batch = binding().batch_init(db);
  }

  get size(): number {
    return this.count;
  }

  /** Any Uint8Array view works: the binding copies its bytes (napi_get_buffer_info takes views). */
  put(key: Uint8Array, value: Uint8Array | string): void {
    binding().batch_put(this.batch, key, value);
    this.count++;
  }

  del(key: Uint8Array): void {
    binding().batch_del(this.batch, key);
    this.count++;
  }

  write(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return cbPromise((cb) => binding().batch_write(this.batch, {}, cb));
  }
}
