/** The Kafka protocol's primitive types (wire-codec.ts): what is written reads back the same. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WireReader, WireWriter } from '../../../../engine/connectors/kafka/wire-codec.ts';

test('unsigned varints take 1 byte below 128 and read back up to 2^32 - 1', () => {
  assert.deepEqual([...new WireWriter().uvarint(0).bytes()], [0]);
  assert.deepEqual([...new WireWriter().uvarint(127).bytes()], [127]);
  assert.deepEqual([...new WireWriter().uvarint(128).bytes()], [0x80, 1]);
  for (const v of [0, 1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 32 - 1])
    assert.equal(new WireReader(new WireWriter().uvarint(v).bytes()).uvarint(), v);
});

test('classic and compact strings, nulls, arrays, integers and empty tag sections round-trip', () => {
  const bytes = new WireWriter()
    .string('tx-1')
    .string(null)
    .compactString('héllo')
    .compactString(null)
    .compactArray(['a', 'bc'], (w, s) => w.compactString(s))
    .array([1, 2], (w, n) => w.int32(n))
    .int64(2n ** 62n)
    .int16(-1)
    .bool(true)
    .tags()
    .bytes();
  const r = new WireReader(bytes);
  assert.equal(r.string(), 'tx-1');
  assert.equal(r.string(), null);
  assert.equal(r.compactString(), 'héllo');
  assert.equal(r.compactString(), null);
  assert.deepEqual(
    r.compactArray((x) => x.compactString()),
    ['a', 'bc'],
  );
  assert.deepEqual(
    r.array((x) => x.int32()),
    [1, 2],
  );
  assert.equal(r.int64(), 2n ** 62n);
  assert.equal(r.int16(), -1);
  assert.equal(r.bool(), true);
  r.tags();
  assert.throws(() => r.int8(), /Kafka response ends early/);
});

test('tagged fields the broker adds are skipped', () => {
  // Two tagged fields: tag 0 with 2 bytes, tag 5 with 1 byte, then an int16.
  const r = new WireReader(Buffer.from([2, 0, 2, 0xaa, 0xbb, 5, 1, 0xcc, 0, 7]));
  r.tags();
  assert.equal(r.int16(), 7);
});
