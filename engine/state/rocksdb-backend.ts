/**
 * RocksDBStateBackend: keyed working state in RocksDB (npm `rocksdb`) in a local working folder, off
 * the JavaScript heap, so state can be larger than memory (docs/architecture.md, state backends). One RocksDB instance per
 * operator subtask; tables are key prefixes (rocksdb-keys.ts). Snapshots: rocksdb-snapshot.ts;
 * restore: rocksdb-restore.ts.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type {
  KeyGroupRange,
  KeyedStateBackend,
  KeyedStateSnapshot,
  StateSize,
  StateTable,
} from '../contracts/keyed-state.ts';
import type { CheckpointWorkerStorage } from '../contracts/checkpoint-storage.ts';
import { checkEntrySize, MAX_ENTRY_PART_BYTES } from './entry-limits.ts';
import { decodeKey } from './key-codec.ts';
import { checkTableName, dbKey, tableEnd, tablePrefix } from './rocksdb-keys.ts';
import { NativeDb } from './rocksdb-native.ts';
import { RocksDBSnapshotter } from './rocksdb-snapshot.ts';
import { restoreSnapshots } from './rocksdb-restore.ts';

export interface RocksDBStateBackendOptions {
  /** Where snapshot files go (filesystem checkpoint storage, task side). */
  storage: CheckpointWorkerStorage;
  operatorId: string;
  subtask: number;
  keyGroupRange: KeyGroupRange;
  /** Local working folder; this subtask's database is a fresh subfolder. Default: os.tmpdir()/weir-rocksdb. */
  workDir?: string;
  incremental?: boolean;
  /** Deltas per chain before a fresh base (see rocksdb-snapshot.ts). */
  maxDeltaChain?: number;
  /** Changed keys remembered between checkpoints before the next one is a full base (default 1M). */
  maxTrackedChanges?: number;
}

function defaultRocksDBWorkDir(): string {
  return join(tmpdir(), 'weir-rocksdb');
}

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'op';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sweptWorkDirs = new Set<string>();

/**
 * Working folders are named `<op>-<subtask>-<pid>-<random>`. A task process killed with SIGKILL never
 * disposes its databases; the first backend created in a work dir by a process removes the folders of
 * processes that no longer exist, so crash loops do not fill the disk.
 */
async function sweepStaleWorkDirs(workDir: string): Promise<void> {
  if (sweptWorkDirs.has(workDir)) return;
  sweptWorkDirs.add(workDir);
  let names: string[];
  try {
    names = await readdir(workDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /-(\d+)-[0-9a-f]{8}$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && !processAlive(pid))
      await rm(join(workDir, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

export async function createRocksDBStateBackend(opts: RocksDBStateBackendOptions): Promise<RocksDBStateBackend> {
  const workDir = opts.workDir ?? defaultRocksDBWorkDir();
  await sweepStaleWorkDirs(workDir);
  const location = join(
    workDir,
    `${safe(opts.operatorId)}-${opts.subtask}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  await mkdir(location, { recursive: true });
  const db = await NativeDb.open(location);
  return new RocksDBStateBackend(opts, db, location);
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const s = await stat(join(dir, name));
      total += s.isDirectory() ? await folderBytes(join(dir, name)) : s.size;
    } catch {
      /* file vanished during compaction */
    }
  }
  return total;
}

class RocksTable<V> implements StateTable<V> {
  private readonly end: Buffer;
  constructor(
    readonly name: string,
    private readonly prefix: Buffer,
    private readonly backend: RocksDBStateBackend,
  ) {
    this.end = tableEnd(prefix);
  }

  async getMany(keys: readonly string[]): Promise<Array<V | undefined>> {
    if (keys.length === 0) return [];
    const db = this.backend.liveDb();
    const raw = await db.getMany(keys.map((k) => dbKey(this.prefix, k)));
    return raw.map((b) => (b === undefined ? undefined : (JSON.parse(b.toString('utf8')) as V)));
  }

  async writeMany(entries: ReadonlyArray<readonly [string, V | undefined]>): Promise<void> {
    if (entries.length === 0) return;
    const batch = this.backend.liveDb().writeBatch();
    const snapshotter = this.backend.snapshotter;
    const track = snapshotter.tracksChanges;
    for (let i = 0; i < entries.length; i++) {
      const [k, v] = entries[i];
      const key = dbKey(this.prefix, k);
      if (v === undefined) {
        batch.del(key);
        if (track) snapshotter.trackChange(key, null);
      } else {
        const json = JSON.stringify(v);
        if (json === undefined)
          throw new Error(`state table '${this.name}': value for key '${k}' is not JSON-serializable`);
        // Check the length before the value is encoded (UTF-8 is at most 3 bytes per UTF-16 unit).
        if (key.length > MAX_ENTRY_PART_BYTES || json.length * 3 > MAX_ENTRY_PART_BYTES) {
          checkEntrySize(this.name, k, key.length, Buffer.byteLength(json, 'utf8'));
        }
        // The native batch encodes the string as UTF-8 straight into its buffer: no Buffer per value.
        batch.put(key, json);
        if (track) snapshotter.trackChange(key, json);
      }
    }
    await batch.write();
  }

  async *scan(range: { gte?: string; lt?: string } = {}): AsyncIterable<[string, V]> {
    const gte = range.gte !== undefined ? dbKey(this.prefix, range.gte) : this.prefix;
    const lt = range.lt !== undefined ? dbKey(this.prefix, range.lt) : this.end;
    if (Buffer.compare(gte, lt) >= 0) return;
    const it = this.backend.liveDb().iterator({ gte, lt, highWaterMark: 64 * 1024 });
    try {
      for (;;) {
        const entries = await it.nextBatch();
        if (entries.length === 0) return;
        for (const [k, v] of entries) yield [decodeKey(k, this.prefix.length), JSON.parse(v.toString('utf8')) as V];
      }
    } finally {
      await it.end();
    }
  }
}

export class RocksDBStateBackend implements KeyedStateBackend {
  readonly kind = 'rocksdb' as const;
  readonly snapshotter: RocksDBSnapshotter;
  private readonly tables = new Map<string, RocksTable<unknown>>();
  private keyGroupRange: KeyGroupRange;
  private disposed = false;

  constructor(
    private readonly opts: RocksDBStateBackendOptions,
    private db: NativeDb,
    readonly location: string,
  ) {
    this.keyGroupRange = { ...opts.keyGroupRange };
    this.snapshotter = new RocksDBSnapshotter({
      db: () => this.liveDb(),
      storage: opts.storage,
      fileStem: `${safe(opts.operatorId)}-${opts.subtask}`,
      keyGroupRange: () => this.keyGroupRange,
      incremental: !!opts.incremental,
      maxDeltaChain: opts.maxDeltaChain,
      maxTrackedChanges: opts.maxTrackedChanges,
    });
  }

  liveDb(): NativeDb {
    if (this.disposed)
      throw new Error(`RocksDB state of '${this.opts.operatorId}' subtask ${this.opts.subtask} is disposed`);
    return this.db;
  }

  table<V = unknown>(name: string): StateTable<V> {
    let t = this.tables.get(name);
    if (!t) {
      checkTableName(name);
      t = new RocksTable<unknown>(name, tablePrefix(name), this);
      this.tables.set(name, t);
    }
    return t as StateTable<V>;
  }

  async size(): Promise<StateSize> {
    const db = this.liveDb();
    const onDisk = await db.approximateSize(Buffer.alloc(0), Buffer.from([0xff, 0xff, 0xff, 0xff]));
    const memtables = db.numericProperty('rocksdb.cur-size-all-mem-tables');
    return {
      liveBytes: Math.max(onDisk, db.numericProperty('rocksdb.estimate-live-data-size')) + memtables,
      diskBytes: await folderBytes(this.location),
      entries: db.numericProperty('rocksdb.estimate-num-keys'),
    };
  }

  snapshot(checkpointId: number): () => Promise<KeyedStateSnapshot> {
    this.liveDb();
    return this.snapshotter.snapshot(checkpointId);
  }

  async restore(snapshots: KeyedStateSnapshot[], range: KeyGroupRange): Promise<void> {
    // Start from an empty database: restore replaces whatever was there.
    await this.liveDb().close();
    await NativeDb.destroy(this.location);
    this.db = await NativeDb.open(this.location);
    this.keyGroupRange = { ...range };
    this.snapshotter.reset();
    await restoreSnapshots(this.db, this.opts.storage, snapshots, range);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.db.close().catch(() => undefined);
    await rm(this.location, { recursive: true, force: true });
  }
}
