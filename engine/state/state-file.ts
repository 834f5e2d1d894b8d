/**
 * The binary format of keyed-state files in checkpoint storage, shared by every backend that writes
 * files (heap backend on `fs`, RocksDB full and incremental snapshots).
 *
 *   file    := MAGIC record* END
 *   MAGIC   := "WEIRSTF1"
 *   record  := 'T' u32 tableIdx u32 len name        (declares a table name once per file)
 *            | 'P' u32 tableIdx u32 klen key u32 vlen value   (put; value = UTF-8 JSON)
 *            | 'D' u32 tableIdx u32 klen key                  (delete; only in incremental deltas)
 *   END     := 'E' u32 count                          (number of P+D records: detects truncation)
 *
 * Integers are big-endian. Keys are CESU-8 (see key-codec.ts), so replaying a file preserves keys
 * exactly. A file is replayed in order; a delta file applied on top of its base gives the state.
 */
import { checkEntrySize, MAX_ENTRY_PART_BYTES } from './entry-limits.ts';
import { encodeKey, hasSurrogate } from './key-codec.ts';

export const STATE_FILE_MAGIC = Buffer.from('WEIRSTF1', 'ascii');
const OP_TABLE = 0x54,
  OP_PUT = 0x50,
  OP_DEL = 0x44,
  OP_END = 0x45;
const CHUNK = 1 << 20;

export interface ChunkSink {
  write(chunk: Uint8Array): Promise<void>;
}

/** Batches records into ~1 MB chunks; one awaited write per chunk, not per record. */
export class StateFileEncoder {
  private buf = Buffer.allocUnsafe(CHUNK);
  private pos = 0;
  private tables = new Map<string, number>();
  private count = 0;

  constructor(private readonly sink: ChunkSink) {
    STATE_FILE_MAGIC.copy(this.buf, 0);
    this.pos = STATE_FILE_MAGIC.length;
  }

  get records(): number {
    return this.count;
  }

  /** True when the caller should `await flush()` before adding more. */
  get full(): boolean {
    return this.pos >= CHUNK - 64;
  }

  private tableIdx(table: string): number {
    let idx = this.tables.get(table);
    if (idx !== undefined) return idx;
    idx = this.tables.size;
    this.tables.set(table, idx);
    const name = Buffer.from(table, 'utf8');
    this.reserve(9 + name.length);
    this.buf[this.pos++] = OP_TABLE;
    this.pos = this.buf.writeUInt32BE(idx, this.pos);
    this.pos = this.buf.writeUInt32BE(name.length, this.pos);
    this.pos += name.copy(this.buf, this.pos);
    return idx;
  }

  /** Ensures `n` bytes fit in the current chunk (grows it for one oversized record). */
  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    // Only reached by a single record larger than the free space: grow once, flushed on next flush().
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  put(table: string, key: Uint8Array, value: Uint8Array): void {
    if (key.length > MAX_ENTRY_PART_BYTES || value.length > MAX_ENTRY_PART_BYTES) {
      checkEntrySize(table, Buffer.from(key.subarray(0, 60)).toString('utf8'), key.length, value.length);
    }
    const idx = this.tableIdx(table);
    this.reserve(13 + key.length + value.length);
    const b = this.buf;
    b[this.pos++] = OP_PUT;
    this.pos = b.writeUInt32BE(idx, this.pos);
    this.pos = b.writeUInt32BE(key.length, this.pos);
    b.set(key, this.pos);
    this.pos += key.length;
    this.pos = b.writeUInt32BE(value.length, this.pos);
    b.set(value, this.pos);
    this.pos += value.length;
    this.count++;
  }

  /**
   * `put` of a key and a JSON text given as strings, written straight into the chunk: the heap
   * backend's snapshot of every entry would otherwise make two short-lived Buffers per entry.
   */
  putText(table: string, key: string, json: string): void {
    if (hasSurrogate(key)) return this.put(table, encodeKey(key), Buffer.from(json, 'utf8'));
    const klen = Buffer.byteLength(key, 'utf8');
    const vlen = Buffer.byteLength(json, 'utf8');
    if (klen > MAX_ENTRY_PART_BYTES || vlen > MAX_ENTRY_PART_BYTES) checkEntrySize(table, key.slice(0, 60), klen, vlen);
    const idx = this.tableIdx(table);
    this.reserve(13 + klen + vlen);
    const b = this.buf;
    b[this.pos++] = OP_PUT;
    this.pos = b.writeUInt32BE(idx, this.pos);
    this.pos = b.writeUInt32BE(klen, this.pos);
    this.pos += b.write(key, this.pos, 'utf8');
    this.pos = b.writeUInt32BE(vlen, this.pos);
    this.pos += b.write(json, this.pos, 'utf8');
    this.count++;
  }

  del(table: string, key: Uint8Array): void {
    const idx = this.tableIdx(table);
    this.reserve(9 + key.length);
    const b = this.buf;
    b[this.pos++] = OP_DEL;
    this.pos = b.writeUInt32BE(idx, this.pos);
    this.pos = b.writeUInt32BE(key.length, this.pos);
    b.set(key, this.pos);
    this.pos += key.length;
    this.count++;
  }

  async flush(): Promise<void> {
    const out = this.cut();
    if (out !== null) await this.sink.write(out);
  }

  /**
   * The bytes encoded since the last cut (null if none), taken out of the encoder: for a caller
   * that encodes synchronously and writes the chunks later (the sink is then not used).
   */
  cut(): Uint8Array | null {
    if (this.pos === 0) return null;
    const out = this.buf.subarray(0, this.pos);
    // The sink may keep the chunk until written; start a fresh buffer instead of reusing this one.
    this.buf = Buffer.allocUnsafe(CHUNK);
    this.pos = 0;
    return out;
  }

  /** Writes the end marker and flushes; the caller then commits the file. */
  async end(): Promise<void> {
    this.endMarker();
    await this.flush();
  }

  /** Writes the end marker only (`end` without the flush, for a caller that `cut`s). */
  endMarker(): void {
    this.reserve(5);
    this.buf[this.pos++] = OP_END;
    this.pos = this.buf.writeUInt32BE(this.count, this.pos);
  }
}

/** One decoded record; `value` is null for a delete. Buffers are views: copy to keep them. */
export interface RawStateRecord {
  table: string;
  key: Buffer;
  value: Buffer | null;
}

export class StateFileFormatError extends Error {
  constructor(file: string, detail: string) {
    super(`state file ${file} is not a valid Weir state file: ${detail}`);
    this.name = 'StateFileFormatError';
  }
}

/**
 * Receives the records of a state file without an object per record: `record` gets byte offsets
 * into `buf`, valid only during the call (`valueLength` -1 for a delete). Restoring 1M keys through
 * RawStateRecord objects made three Buffer views and one object per key, and the profile of the
 * RocksDB restore showed them (Buffer.subarray, FastBuffer, garbage collection) as over half of its
 * CPU (see rocksdb-restore.ts).
 */
export interface StateRecordVisitor {
  record(
    table: string,
    buf: Buffer,
    keyStart: number,
    keyLength: number,
    valueStart: number,
    valueLength: number,
  ): void;
  /** Called after the records of each input chunk (if it held any), awaited before the next. */
  endOfChunk(): Promise<void> | void;
}

/**
 * Streams the records of a state file in batches (one callback per input chunk, awaited), so that
 * replay into RocksDB is one write batch per chunk. `file` names the file in errors.
 */
export async function decodeStateFile(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  onBatch: (records: RawStateRecord[]) => Promise<void> | void,
): Promise<number> {
  let batch: RawStateRecord[] = [];
  return visitStateFile(file, chunks, {
    record(table, buf, ks, kl, vs, vl) {
      batch.push({ table, key: buf.subarray(ks, ks + kl), value: vl < 0 ? null : buf.subarray(vs, vs + vl) });
    },
    endOfChunk() {
      const records = batch;
      batch = [];
      return onBatch(records);
    },
  });
}

/** The decoder behind `decodeStateFile`: same checks and errors, records as offsets. */
export async function visitStateFile(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  visitor: StateRecordVisitor,
): Promise<number> {
  // Incoming chunks are only concatenated once enough bytes for the next record are there, so a
  // record much larger than the read size costs one copy, not one per chunk.
  let parts: Buffer[] = [];
  let partsLen = 0;
  let needed = STATE_FILE_MAGIC.length;
  let magicSeen = false;
  let ended = false;
  let count = 0;
  const tables: string[] = [];
  for await (const chunk of chunks) {
    if (ended) throw new StateFileFormatError(file, 'data after the end marker');
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    partsLen += chunk.length;
    if (partsLen < needed) continue;
    const pending = parts.length === 1 ? parts[0] : Buffer.concat(parts, partsLen);
    let p = 0;
    if (!magicSeen) {
      if (!pending.subarray(0, STATE_FILE_MAGIC.length).equals(STATE_FILE_MAGIC)) {
        throw new StateFileFormatError(file, 'wrong magic bytes');
      }
      magicSeen = true;
      p = STATE_FILE_MAGIC.length;
    }
    let inChunk = 0;
    needed = 0;
    while (p < pending.length && !ended) {
      const op = pending[p];
      const start = p;
      const avail = pending.length - p;
      if (op === OP_END) {
        if (avail < 5) {
          needed = 5;
          break;
        }
        const expected = pending.readUInt32BE(p + 1);
        if (expected !== count + inChunk) {
          throw new StateFileFormatError(file, `end marker counts ${expected} records, found ${count + inChunk}`);
        }
        p += 5;
        ended = true;
        break;
      }
      if (op !== OP_PUT && op !== OP_DEL && op !== OP_TABLE) {
        throw new StateFileFormatError(file, `unknown record type 0x${op.toString(16)} at byte ${p}`);
      }
      if (avail < 9) {
        needed = 9;
        break;
      }
      const idx = u32(pending, p + 1);
      const len = u32(pending, p + 5);
      if (avail < 9 + len + (op === OP_PUT ? 4 : 0)) {
        needed = 9 + len + (op === OP_PUT ? 4 : 0);
        break;
      }
      const keyStart = p + 9;
      let q = keyStart + len;
      if (op === OP_TABLE) {
        tables[idx] = pending.toString('utf8', keyStart, q);
        p = q;
        continue;
      }
      const table = tables[idx];
      if (table === undefined)
        throw new StateFileFormatError(file, `record at byte ${start} uses undeclared table ${idx}`);
      if (op === OP_DEL) {
        visitor.record(table, pending, keyStart, len, 0, -1);
        inChunk++;
        p = q;
        continue;
      }
      const vlen = u32(pending, q);
      q += 4;
      if (pending.length - q < vlen) {
        needed = q + vlen - start;
        break;
      }
      visitor.record(table, pending, keyStart, len, q, vlen);
      inChunk++;
      p = q + vlen;
    }
    count += inChunk;
    // Records point into `pending`; hand them out before the leftover is kept.
    if (inChunk) await visitor.endOfChunk();
    const rest = pending.subarray(p);
    parts = rest.length ? [rest] : [];
    partsLen = rest.length;
    if (needed === 0) needed = 1;
  }
  if (!magicSeen) throw new StateFileFormatError(file, 'file is empty or shorter than its header');
  if (!ended) throw new StateFileFormatError(file, 'file is truncated (no end marker)');
  return count;
}

/** Big-endian u32 without Buffer.readUInt32BE's argument checks (callers checked the length). */
function u32(b: Buffer, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}
