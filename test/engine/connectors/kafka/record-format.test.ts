/**
 * Rows as Kafka messages (record-format.ts): the three formats, keys, and a changelog written as
 * upsert-kafka reads it (values for +I/+U, tombstones for -D, an in-place update's -U dropped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeRow, toMessages } from '../../../../engine/connectors/kafka/record-format.ts';

test('jsonl, csv and raw values; csv quotes what needs it and leaves nulls empty', () => {
  const row = { id: 1, name: 'a "b", c', note: null };
  assert.equal(encodeRow(row, 'jsonl'), '{"id":1,"name":"a \\"b\\", c","note":null}');
  assert.equal(encodeRow(row, 'csv'), '1,"a ""b"", c",');
  assert.equal(encodeRow({ line: 'x,y' }, 'raw'), 'x,y');
  assert.equal(encodeRow({ n: 5 }, 'raw'), '5');
  assert.equal(encodeRow({ n: null }, 'raw'), null);
  assert.throws(() => encodeRow(row, 'raw'), /raw format writes one column as the value, but the row has 3/);
});

test('keys are the key columns in the same format; unkeyed messages have none', () => {
  const rows = [{ user: 'u1', day: 'mon', n: 2 }];
  assert.deepEqual(toMessages(rows, undefined, 'jsonl', []), [{ key: null, value: '{"user":"u1","day":"mon","n":2}' }]);
  assert.deepEqual(toMessages(rows, undefined, 'jsonl', ['user', 'day']), [
    { key: '{"user":"u1","day":"mon"}', value: '{"user":"u1","day":"mon","n":2}' },
  ]);
  assert.deepEqual(toMessages(rows, undefined, 'csv', ['user']), [{ key: 'u1', value: 'u1,mon,2' }]);
});

test('a changelog: updates in place drop their -U, deletes and moved keys become tombstones', () => {
  const rows = [
    { k: 'a', n: 1 },
    { k: 'a', n: 1 },
    { k: 'a', n: 2 },
    { k: 'b', n: 1 },
    { k: 'c', n: 9 },
    { k: 'a', n: 2 },
  ];
  const kinds = ['+I', '-U', '+U', '+I', '-U', '-D'] as const;
  assert.deepEqual(toMessages(rows, [...kinds], 'jsonl', ['k']), [
    { key: '{"k":"a"}', value: '{"k":"a","n":1}' },
    { key: '{"k":"a"}', value: '{"k":"a","n":2}' },
    { key: '{"k":"b"}', value: '{"k":"b","n":1}' },
    // -U not followed by a +U of its key (a filter dropped it, or the update moved the row): a tombstone.
    { key: '{"k":"c"}', value: null },
    { key: '{"k":"a"}', value: null },
  ]);
});
