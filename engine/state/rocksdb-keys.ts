/**
 * How state tables map onto one RocksDB key space: a table is a key prefix.
 *
 *   dbKey := CESU-8(tableName) 0x00 CESU-8(stateKey)
 *
 * Table names may not contain U+0000, so the first 0x00 byte ends the table name, and keys of one
 * table sort together in UTF-16 order (see key-codec.ts). State keys start with their key group as
 * four hex digits (`stateKey()`), which restore uses to keep only its key-group range.
 */
import { encodeKey, encodeKeyWithPrefix, decodeKey } from './key-codec.ts';

export function checkTableName(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.includes('\u0000')) {
    throw new Error(`invalid state table name ${JSON.stringify(name)}: it must be a non-empty string without U+0000`);
  }
}

export function tablePrefix(name: string): Buffer {
  const enc = encodeKey(name);
  const out = Buffer.allocUnsafe(enc.length + 1);
  enc.copy(out, 0);
  out[enc.length] = 0;
  return out;
}

/** First key after every key of the table (prefix with its 0x00 terminator raised to 0x01). */
export function tableEnd(prefix: Buffer): Buffer {
  const out = Buffer.from(prefix);
  out[out.length - 1] = 1;
  return out;
}

export function dbKey(prefix: Buffer, key: string): Buffer {
  return encodeKeyWithPrefix(prefix, key);
}

/** Index of the 0x00 ending the table name in a db key (the state key starts after it). */
export function tableNameEnd(key: Buffer): number {
  const nameEnd = key.indexOf(0);
  if (nameEnd < 0) throw new Error('RocksDB state key without a table prefix');
  return nameEnd;
}

export function tableNameOf(key: Buffer, nameEnd: number): string {
  return decodeKey(key, 0, nameEnd);
}

/**
 * Key group of an encoded state key (its first four hex digits), or -1 when the key has no
 * key-group prefix. The key is `key[start, end)`.
 */
export function keyGroupOfEncodedKey(key: Uint8Array, start = 0, end = key.length): number {
  if (end - start < 5 || key[start + 4] !== 0x3a /* ':' */) return -1;
  let g = 0;
  for (let i = start; i < start + 4; i++) {
    const c = key[i];
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return -1;
    g = g * 16 + d;
  }
  return g;
}
