/** Partitions spread over subtasks as Flink's KafkaSourceEnumerator.getSplitOwner spreads them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { javaStringHash, partitionOwner } from '../../../../engine/connectors/kafka/partition-owner.ts';

test("Java's String.hashCode, 32-bit overflow included", () => {
  assert.equal(javaStringHash(''), 0);
  assert.equal(javaStringHash('a'), 97);
  assert.equal(javaStringHash('orders'), -1008770331);
  assert.equal(javaStringHash('a fairly long topic name'), -851665104); // both from Java 17
});

test('a topic: a start subtask from its hash, then its partitions round-robin; every subtask agrees', () => {
  for (const p of [1, 2, 3, 4, 7]) {
    const owners = Array.from({ length: 6 }, (_, i) => partitionOwner('orders', i, p));
    const start = (Math.imul(javaStringHash('orders'), 31) & 0x7fffffff) % p;
    assert.deepEqual(
      owners,
      owners.map((_, i) => (start + i) % p),
    );
    const counts = Array.from({ length: p }, (_, s) => owners.filter((o) => o === s).length);
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `6 partitions evenly over ${p}: ${counts}`);
  }
});
