/**
 * Byte encoding of state keys for RocksDB and state files: CESU-8.
 *
 * Why not plain UTF-8: `StateTable.scan` promises UTF-16 code unit order (JavaScript's string
 * order), and RocksDB compares bytes. UTF-8 byte order is code point order, which puts U+E000..U+FFFF
 * before supplementary characters; CESU-8 encodes each UTF-16 code unit on its own (surrogates as
 * 3-byte sequences ED A0..ED BF), so its byte order is exactly UTF-16 code unit order. It also keeps
 * lone surrogates intact, which UTF-8 would replace with U+FFFD. Keys without surrogates (almost all)
 * take the fast native UTF-8 path, since both encodings agree there.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

/** True when `key` holds a UTF-16 surrogate, where CESU-8 and UTF-8 differ. */
export function hasSurrogate(key: string): boolean {
  return SURROGATE.test(key);
}

/** `prefix` followed by the encoded key, in one allocation (the hot path of every state write). */
export function encodeKeyWithPrefix(prefix: Buffer, key: string): Buffer {
  if (SURROGATE.test(key)) return Buffer.concat([prefix, encodeKey(key)]);
  const out = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(key, 'utf8'));
  prefix.copy(out, 0);
  out.write(key, prefix.length, 'utf8');
  return out;
}

export function encodeKey(key: string): Buffer {
  if (!SURROGATE.test(key)) return Buffer.from(key, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(out);
}

/** True when `bytes` holds an encoded surrogate (ED A0..BF), i.e. UTF-8 decoding would be wrong. */
function hasEncodedSurrogate(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end - 1; i++) {
    if (bytes[i] === 0xed && bytes[i + 1] >= 0xa0) return true;
  }
  return false;
}

export function decodeKey(bytes: Buffer, start = 0, end = bytes.length): string {
  if (!hasEncodedSurrogate(bytes, start, end)) return bytes.toString('utf8', start, end);
  let s = '';
  for (let i = start; i < end;) {
    const b = bytes[i];
    if (b < 0x80) {
      s += String.fromCharCode(b);
      i += 1;
    } else if (b < 0xe0) {
      s += String.fromCharCode(((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f));
      i += 2;
    } else {
      s += String.fromCharCode(((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f));
      i += 3;
    }
  }
  return s;
}
