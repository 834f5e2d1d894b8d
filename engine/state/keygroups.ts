/**
 * Key groups, as in Flink: a key hashes to one of `maxParallelism` key groups, and each subtask owns
 * a contiguous range of groups. State is stored per key group, so a job restored with a different
 * parallelism re-splits groups between subtasks without rehashing a single key.
 */
import type { KeyGroupRange } from '../contracts/keyed-state.ts';

/** murmur3 finalizer over a 32-bit FNV-1a of the key's UTF-16 code units: stable across runs. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function keyGroupOf(key: string, maxParallelism: number): number {
  return hashKey(key) % maxParallelism;
}

/** Flink's KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex. */
export function keyGroupRangeFor(maxParallelism: number, parallelism: number, subtask: number): KeyGroupRange {
  const start = Math.floor((subtask * maxParallelism + parallelism - 1) / parallelism);
  const end = Math.floor(((subtask + 1) * maxParallelism - 1) / parallelism);
  return { start, end };
}

/** Flink's computeOperatorIndexForKeyGroup: which subtask owns a key group. */
export function subtaskForKeyGroup(maxParallelism: number, parallelism: number, keyGroup: number): number {
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

/** State keys carry their key group as a fixed-width prefix so ranges can be scanned and split. */
export function stateKey(keyGroup: number, key: string): string {
  return keyGroup.toString(16).padStart(4, '0') + ':' + key;
}

export function keyGroupOfStateKey(stateKeyText: string): number {
  return parseInt(stateKeyText.slice(0, 4), 16);
}
