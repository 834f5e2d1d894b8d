/**
 * MD5, SHA-1 and SHA-2 (224, 256, 384, 512) over UTF-8 bytes, as lowercase hex: what Flink's MD5,
 * SHA1, SHA2 and SHAxxx functions return (MessageDigest over `getBytes(UTF_8)`). Written here
 * because engine/sql must stay browser-safe (no node:crypto) and Weir adds no dependencies. The
 * algorithms follow RFC 1321 and FIPS 180-4; test/engine/sql/digest.test.ts checks them against
 * node:crypto on random inputs.
 */

const utf8 = new TextEncoder();

/** The message padded to a multiple of `block` bytes with its bit length (`lenBytes` wide) at the end. */
function pad(bytes: Uint8Array, block: number, lenBytes: number, littleEndian: boolean): Uint8Array {
  const total = Math.ceil((bytes.length + 1 + lenBytes) / block) * block;
  const out = new Uint8Array(total);
  out.set(bytes);
  out[bytes.length] = 0x80;
  const bits = BigInt(bytes.length) * 8n;
  for (let i = 0; i < 8; i++) {
    const byte = Number((bits >> BigInt(8 * i)) & 0xffn);
    out[littleEndian ? total - lenBytes + i : total - 1 - i] = byte;
  }
  return out;
}

const hex32 = (words: readonly number[], littleEndian: boolean): string =>
  words
    .map((w) => {
      const h = (w >>> 0).toString(16).padStart(8, '0');
      return littleEndian ? h.match(/../g)!.reverse().join('') : h;
    })
    .join('');

const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);

export function md5(text: string): string {
  const m = pad(utf8.encode(text), 64, 8, true);
  const dv = new DataView(m.buffer);
  let [a0, b0, c0, d0] = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476];
  for (let off = 0; off < m.length; off += 64) {
    let [a, b, c, d] = [a0, b0, c0, d0];
    for (let i = 0; i < 64; i++) {
      const round = i >> 4;
      const f =
        round === 0 ? (b & c) | (~b & d) : round === 1 ? (d & b) | (~d & c) : round === 2 ? b ^ c ^ d : c ^ (b | ~d);
      const g = round === 0 ? i : round === 1 ? (5 * i + 1) % 16 : round === 2 ? (3 * i + 5) % 16 : (7 * i) % 16;
      const s = MD5_S[round * 4 + (i % 4)];
      const x = (a + f + MD5_K[i] + dv.getInt32(off + g * 4, true)) | 0;
      [a, d, c] = [d, c, b];
      b = (b + ((x << s) | (x >>> (32 - s)))) | 0;
    }
    [a0, b0, c0, d0] = [(a0 + a) | 0, (b0 + b) | 0, (c0 + c) | 0, (d0 + d) | 0];
  }
  return hex32([a0, b0, c0, d0], true);
}

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));
const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

export function sha1(text: string): string {
  const m = pad(utf8.encode(text), 64, 8, false);
  const dv = new DataView(m.buffer);
  const h = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0];
  const w = new Int32Array(80);
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getInt32(off + i * 4);
    for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    let [a, b, c, d, e] = h;
    for (let i = 0; i < 80; i++) {
      const [f, k] =
        i < 20
          ? [(b & c) | (~b & d), 0x5a827999]
          : i < 40
            ? [b ^ c ^ d, 0x6ed9eba1]
            : i < 60
              ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc | 0]
              : [b ^ c ^ d, 0xca62c1d6 | 0];
      const t = (rotl(a, 5) + f + e + k + w[i]) | 0;
      [e, d, c, b, a] = [d, c, rotl(b, 30), a, t];
    }
    [a, b, c, d, e].forEach((v, i) => (h[i] = (h[i] + v) | 0));
  }
  return hex32(h, false);
}

const SHA256_K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];
const SHA256_IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const SHA224_IV = [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4];

function sha256Family(text: string, iv: readonly number[], words: number): string {
  const m = pad(utf8.encode(text), 64, 8, false);
  const dv = new DataView(m.buffer);
  const h = iv.map((x) => x | 0);
  const w = new Int32Array(64);
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getInt32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i] + v) | 0));
  }
  return hex32(h.slice(0, words), false);
}

// SHA-512's constants: the first 64 bits of the fractional parts of the cube roots of the first 80
// primes, and of the square roots of the first 8 (SHA-512) or the 9th to 16th (SHA-384) primes.
// Computed at the first SHA-384/512, not at load: the bigint root searches took ~6 ms of every task
// process's start-up (issue 27), which needs them only for a job that calls SHA384 or SHA512.
const MASK64 = (1n << 64n) - 1n;
/** floor(frac(root(p)) * 2^64), exactly, by integer root of p * 2^(64 * k) (k = the root's degree). */
function fracRoot(p: bigint, k: 2n | 3n): bigint {
  const target = p << (64n * k);
  let lo = 0n,
    hi = 1n << 70n;
  while (lo < hi) {
    const mid = (lo + hi + 1n) >> 1n;
    if (mid ** k <= target) lo = mid;
    else hi = mid - 1n;
  }
  return lo & MASK64;
}
let sha512Constants: { k: bigint[]; iv512: bigint[]; iv384: bigint[] } | null = null;
function sha512Consts(): { k: bigint[]; iv512: bigint[]; iv384: bigint[] } {
  if (sha512Constants) return sha512Constants;
  const primes: bigint[] = [];
  for (let n = 2; primes.length < 80; n++) if (primes.every((p) => n % Number(p) !== 0)) primes.push(BigInt(n));
  sha512Constants = {
    k: primes.map((p) => fracRoot(p, 3n)),
    iv512: primes.slice(0, 8).map((p) => fracRoot(p, 2n)),
    iv384: primes.slice(8, 16).map((p) => fracRoot(p, 2n)),
  };
  return sha512Constants;
}

const rotr64 = (x: bigint, n: bigint): bigint => ((x >> n) | (x << (64n - n))) & MASK64;

function sha512Family(text: string, iv: readonly bigint[], words: number): string {
  const SHA512_K = sha512Consts().k;
  const m = pad(utf8.encode(text), 128, 16, false);
  const dv = new DataView(m.buffer);
  const h = [...iv];
  const w: bigint[] = new Array(80);
  for (let off = 0; off < m.length; off += 128) {
    for (let i = 0; i < 16; i++) w[i] = dv.getBigUint64(off + i * 8);
    for (let i = 16; i < 80; i++) {
      const s0 = rotr64(w[i - 15], 1n) ^ rotr64(w[i - 15], 8n) ^ (w[i - 15] >> 7n);
      const s1 = rotr64(w[i - 2], 19n) ^ rotr64(w[i - 2], 61n) ^ (w[i - 2] >> 6n);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & MASK64;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 80; i++) {
      const ch = (e & f) ^ (~e & MASK64 & g);
      const t1 = (hh + (rotr64(e, 14n) ^ rotr64(e, 18n) ^ rotr64(e, 41n)) + ch + SHA512_K[i] + w[i]) & MASK64;
      const t2 = ((rotr64(a, 28n) ^ rotr64(a, 34n) ^ rotr64(a, 39n)) + ((a & b) ^ (a & c) ^ (b & c))) & MASK64;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) & MASK64, c, b, a, (t1 + t2) & MASK64];
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i] + v) & MASK64));
  }
  return h
    .slice(0, words)
    .map((x) => x.toString(16).padStart(16, '0'))
    .join('');
}

export const sha224 = (t: string): string => sha256Family(t, SHA224_IV, 7);
export const sha256 = (t: string): string => sha256Family(t, SHA256_IV, 8);
export const sha384 = (t: string): string => sha512Family(t, sha512Consts().iv384, 6);
export const sha512 = (t: string): string => sha512Family(t, sha512Consts().iv512, 8);
