/**
 * Flink's hash functions: MD5, SHA1, SHA224, SHA256, SHA384, SHA512 and SHA2(s, bits), each the
 * lowercase hex digest of the string's UTF-8 bytes, NULL for a NULL argument. SHA2 takes 224, 256,
 * 384 or 512 bits; another constant length is refused at validation (Flink fails the job, as
 * MessageDigest knows no such algorithm), and a per-row one gives NULL.
 */
import type { FunctionSpec } from './types.ts';
import { md5, sha1, sha224, sha256, sha384, sha512 } from './digest.ts';
import { constantOf, int, strict, text } from './function-args.ts';

const DIGESTS: Record<number, (s: string) => string> = { 224: sha224, 256: sha256, 384: sha384, 512: sha512 };

function hash(name: string, digest: (s: string) => string, hexDigits: number): FunctionSpec {
  return strict(
    {
      min: 1,
      max: 1,
      params: ['STRING'],
      signature: `${name}(s STRING) → STRING (${hexDigits} hex digits)`,
      type: 'STRING',
    },
    ([v]) => digest(text(v)!),
  );
}

export const HASH_FUNCTIONS: Record<string, FunctionSpec> = {
  MD5: hash('MD5', md5, 32),
  SHA1: hash('SHA1', sha1, 40),
  SHA224: hash('SHA224', sha224, 56),
  SHA256: hash('SHA256', sha256, 64),
  SHA384: hash('SHA384', sha384, 96),
  SHA512: hash('SHA512', sha512, 128),
  SHA2: {
    ...strict(
      { min: 2, max: 2, params: ['STRING', 'INTEGER'], signature: 'SHA2(s STRING, bits INT) → STRING', type: 'STRING' },
      ([v, bits]) => DIGESTS[int(bits)!]?.(text(v)!) ?? null,
    ),
    check: ([, bits]) => {
      const b = constantOf(bits);
      return typeof b === 'number' && !DIGESTS[b]
        ? `the bit length (argument 2) must be 224, 256, 384 or 512, got ${b}`
        : null;
    },
  },
};
