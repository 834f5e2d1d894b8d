/**
 * Which subtask owns a partition: Flink's `KafkaSourceEnumerator.getSplitOwner`, so partitions are
 * spread as Flink spreads them and every subtask computes the same answer without asking anyone:
 * the topic's Java hash picks a start subtask, and its partitions follow round-robin from there.
 * A restore at another parallelism gives every partition a new owner the same way, and the owner
 * takes the partition's offset from the union of all restored positions (kafka-positions.ts).
 */

/** Java's `String.hashCode` (UTF-16 code units, 32-bit overflow). */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export function partitionOwner(topic: string, partition: number, parallelism: number): number {
  const start = (Math.imul(javaStringHash(topic), 31) & 0x7fffffff) % parallelism;
  return (start + partition) % parallelism;
}
