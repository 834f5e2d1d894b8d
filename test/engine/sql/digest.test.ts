/** engine/sql/digest.ts (browser-safe MD5, SHA-1, SHA-2) against node:crypto on random text. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { md5, sha1, sha224, sha256, sha384, sha512 } from '../../../engine/sql/digest.ts';

const DIGESTS = { md5, sha1, sha224, sha256, sha384, sha512 };

it('every digest equals node:crypto on random text of every length around the block sizes', () => {
  let seed = 7;
  const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
  const alphabet = ['a', 'Z', '0', ' ', 'é', '漢', '🙂', '\n'];
  for (let len = 0; len < 300; len++) {
    let text = '';
    while (text.length < len) text += alphabet[next() % alphabet.length];
    for (const [name, digest] of Object.entries(DIGESTS))
      assert.equal(digest(text), createHash(name).update(text, 'utf8').digest('hex'), `${name} of ${len} chars`);
  }
});
