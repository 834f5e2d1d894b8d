/** The keyed state backend of one operator subtask, per `settings.stateBackend`. */
import type { NormalizedJob } from '../../graph/types.ts';
import type { KeyedStateBackend, KeyGroupRange } from '../../contracts/keyed-state.ts';
import type { CheckpointWorkerStorage } from '../../contracts/checkpoint-storage.ts';
import { HeapStateBackend } from '../../state/heap.ts';
import { createRocksDBStateBackend } from '../../state/rocksdb-backend.ts';

export async function createStateBackend(
  job: NormalizedJob,
  nodeId: string,
  subtask: number,
  range: KeyGroupRange,
  storage: CheckpointWorkerStorage,
): Promise<KeyedStateBackend> {
  const stem = `${nodeId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'op'}-${subtask}`;
  switch (job.settings.stateBackend) {
    case 'memory':
      return new HeapStateBackend({ kind: 'memory', keyGroupRange: range, operatorId: nodeId, subtask });
    case 'fs':
      return new HeapStateBackend({
        kind: 'fs',
        keyGroupRange: range,
        storage,
        fileStem: stem,
        operatorId: nodeId,
        subtask,
      });
    case 'rocksdb':
      return createRocksDBStateBackend({
        storage,
        operatorId: nodeId,
        subtask,
        keyGroupRange: range,
        incremental: job.settings.checkpointing.incremental,
      });
  }
}
