import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StateFileEncoder, decodeStateFile, type RawStateRecord } from '../../../engine/state/state-file.ts';
import { decodeKey, encodeKey } from '../../../engine/state/key-codec.ts';

async function encode(records: Array<[string, string, unknown | undefined]>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const enc = new StateFileEncoder({
    write: async (c) => {
      chunks.push(Buffer.from(c));
    },
  });
  for (const [table, key, value] of records) {
    if (value === undefined) enc.del(table, encodeKey(key));
    else enc.put(table, encodeKey(key), Buffer.from(JSON.stringify(value)));
    if (enc.full) await enc.flush();
  }
  await enc.end();
  return Buffer.concat(chunks);
}

async function* chunked(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function decode(bytes: Buffer, size: number): Promise<Array<[string, string, unknown | undefined]>> {
  const out: Array<[string, string, unknown | undefined]> = [];
  await decodeStateFile('test.wst', chunked(bytes, size), (batch: RawStateRecord[]) => {
    for (const r of batch)
      out.push([r.table, decodeKey(r.key), r.value ? JSON.parse(r.value.toString('utf8')) : undefined]);
  });
  return out;
}

describe('state file format', () => {
  const records: Array<[string, string, unknown | undefined]> = [];
  for (let i = 0; i < 3000; i++)
    records.push([
      i % 3 === 0 ? 'windows' : 'tïmers',
      `00${(i % 128).toString(16).padStart(2, '0')}:k${i}\uD83D`,
      i % 11 === 0 ? undefined : { i, s: 'x'.repeat(i % 50) },
    ]);
  records.push(['big', '0000:big', 'y'.repeat(3 << 20)]); // one record larger than a chunk

  it('round-trips records in order, whatever the read chunk size', async () => {
    const small = await encode(records.slice(0, 300));
    for (const size of [1, 7]) assert.deepEqual(await decode(small, size), records.slice(0, 300), `chunk size ${size}`);
    const bytes = await encode(records);
    for (const size of [4096, 1 << 20, bytes.length])
      assert.deepEqual(await decode(bytes, size), records, `chunk size ${size}`);
  });

  it('putText (strings, cut chunks) writes the same bytes as put (Buffers, flushed chunks)', async () => {
    const puts = records.filter((r) => r[2] !== undefined);
    const enc = new StateFileEncoder({
      write: () => Promise.reject(new Error('a cutting caller never flushes')),
    });
    const chunks: Uint8Array[] = [];
    for (const [table, key, value] of puts) {
      enc.putText(table, key, JSON.stringify(value));
      if (enc.full) chunks.push(enc.cut()!);
    }
    enc.endMarker();
    chunks.push(enc.cut()!);
    assert.ok(chunks.length > 1, 'the records span more than one chunk');
    assert.ok(
      puts.some((r) => /[\uD800-\uDFFF]/.test(r[1])),
      'some keys hold surrogates (CESU-8 differs from UTF-8)',
    );
    assert.deepEqual(Buffer.concat(chunks), await encode(puts));
  });

  it('rejects truncated, foreign and inconsistent files, naming the file', async () => {
    const bytes = await encode(records.slice(0, 100));
    await assert.rejects(decode(bytes.subarray(0, bytes.length - 3), 64), /state file test\.wst .*truncated/);
    await assert.rejects(decode(bytes.subarray(0, bytes.length - 5), 64), /truncated \(no end marker\)/);
    await assert.rejects(
      decode(Buffer.from('{"tables":{}}'), 64),
      /test\.wst is not a valid Weir state file: wrong magic bytes/,
    );
    await assert.rejects(decode(Buffer.alloc(0), 64), /empty or shorter than its header/);
    const wrongCount = Buffer.from(bytes);
    wrongCount.writeUInt32BE(99, wrongCount.length - 4);
    await assert.rejects(decode(wrongCount, 64), /end marker counts 99 records, found 100/);
  });
});
