/**
 * The hand-written baselines for the RocksDB backend: the `rocksdb` package driven directly, with
 * the best batching it allows (one `getMany` per batch of reads; one native write batch filled by
 * direct `batch_put` calls, no op objects, per batch of writes), on the same keys, values and
 * batch sizes as the backend's run. Keys are built and values JSON-encoded here too: the work the
 * data itself needs is on both sides; what differs is the backend's own layers.
 */
import { createRequire } from 'node:module';
import { encodeKeyWithPrefix } from '../engine/state/key-codec.ts';
import { tablePrefix } from '../engine/state/rocksdb-keys.ts';
import { WRITE_BUFFER_BYTES } from '../engine/state/rocksdb-native.ts';
import { UPDATE_BATCH, rng, type Counter } from './state-probe.ts';

interface RawDb {
  context: unknown;
  open(o: object, cb: (e?: Error | null) => void): void;
  close(cb: (e?: Error | null) => void): void;
  getMany(keys: Buffer[], o: object, cb: (e: Error | null, v: Array<Buffer | undefined>) => void): void;
}
interface RawBinding {
  batch_init(db: unknown): unknown;
  batch_put(b: unknown, k: Buffer, v: Buffer | string): void;
  batch_write(b: unknown, o: object, cb: (e?: Error | null) => void): void;
}

const require = createRequire(import.meta.url);
const open = require('rocksdb') as (location: string) => RawDb;
const binding = require('rocksdb/binding') as RawBinding;

const cb = (run: (done: (e?: Error | null) => void) => void) =>
  new Promise<void>((resolve, reject) => run((e) => (e ? reject(e) : resolve())));

export class HandRocks {
  private constructor(private readonly db: RawDb) {}

  static async open(location: string): Promise<HandRocks> {
    const db = open(location);
    await cb((d) => db.open({ createIfMissing: true, writeBufferSize: WRITE_BUFFER_BYTES }, d));
    return new HandRocks(db);
  }

  /** One native batch of puts; resolves when RocksDB has written it. */
  putAll(keys: Buffer[], values: Array<Buffer | string>): Promise<void> {
    const b = binding.batch_init(this.db.context);
    for (let i = 0; i < keys.length; i++) binding.batch_put(b, keys[i], values[i]);
    return cb((d) => binding.batch_write(b, {}, d));
  }

  getMany(keys: Buffer[]): Promise<Array<Buffer | undefined>> {
    return new Promise((resolve, reject) =>
      this.db.getMany(keys, { asBuffer: true }, (e, v) => (e ? reject(e) : resolve(v))),
    );
  }

  close(): Promise<void> {
    return cb((d) => this.db.close(d));
  }
}

/**
 * The probe's read-modify-write workload (state-probe.ts) by hand: `keys` loaded, then updates of
 * UPDATE_BATCH random keys for `seconds`. Returns updates/s.
 */
export async function handUpdates(
  db: HandRocks,
  keyOf: (i: number) => string,
  keys: number,
  seconds: number,
): Promise<number> {
  const prefix = tablePrefix('counts');
  const random = rng(17);
  const t0 = performance.now();
  let updates = 0;
  while (performance.now() - t0 < seconds * 1000) {
    const k: Buffer[] = new Array(UPDATE_BATCH);
    for (let i = 0; i < UPDATE_BATCH; i++) k[i] = encodeKeyWithPrefix(prefix, keyOf(Math.floor(random() * keys)));
    const raw = await db.getMany(k);
    const values: string[] = new Array(UPDATE_BATCH);
    for (let i = 0; i < UPDATE_BATCH; i++) {
      const v = raw[i] ? (JSON.parse(raw[i]!.toString('utf8')) as Counter) : { n: 0, sum: 0 };
      values[i] = JSON.stringify({ n: v.n + 1, sum: v.sum + i });
    }
    await db.putAll(k, values);
    updates += UPDATE_BATCH;
  }
  return updates / ((performance.now() - t0) / 1000);
}

/** Loads `keys` keys in batches of 10,000 by hand; returns puts/s. */
export async function handLoad(db: HandRocks, keyOf: (i: number) => string, keys: number): Promise<number> {
  const prefix = tablePrefix('counts');
  const t0 = performance.now();
  for (let i = 0; i < keys; i += 10_000) {
    const k: Buffer[] = [];
    const v: string[] = [];
    for (let j = i; j < Math.min(keys, i + 10_000); j++) {
      k.push(encodeKeyWithPrefix(prefix, keyOf(j)));
      v.push(JSON.stringify({ n: 1, sum: j }));
    }
    await db.putAll(k, v);
  }
  return keys / ((performance.now() - t0) / 1000);
}
