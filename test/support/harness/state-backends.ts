/**
 * The three real state backends for harness tests, as the runtime builds them: `memory` (heap,
 * inline snapshots), `fs` (heap, snapshot files through filesystem checkpoint storage) and `rocksdb`
 * (RocksDB working state, snapshot files through the same storage). One temporary folder holds the
 * checkpoint storage and the RocksDB working folders; `dispose` removes it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateBackendKind } from '../../../engine/graph/types.ts';
import { HeapStateBackend } from '../../../engine/state/heap.ts';
import { createRocksDBStateBackend } from '../../../engine/state/rocksdb-backend.ts';
import { FsCheckpointWorkerStorage } from '../../../engine/checkpoint/fs-worker-storage.ts';
import type { BackendFactory } from './operator-test-harness.ts';

export const BACKEND_KINDS: readonly StateBackendKind[] = ['memory', 'fs', 'rocksdb'];

export interface HarnessBackends {
  readonly root: string;
  factory(kind: StateBackendKind, operatorId?: string): BackendFactory;
  dispose(): Promise<void>;
}

export async function createHarnessBackends(): Promise<HarnessBackends> {
  const root = await mkdtemp(join(tmpdir(), 'weir-harness-'));
  const storage = new FsCheckpointWorkerStorage(join(root, 'checkpoints'));
  let instance = 0;
  return {
    root,
    factory(kind, operatorId = 'op'): BackendFactory {
      return async (keyGroupRange, subtask) => {
        const stem = `${operatorId}-${subtask}-${instance++}`;
        switch (kind) {
          case 'memory':
            return new HeapStateBackend({ kind: 'memory', keyGroupRange });
          case 'fs':
            return new HeapStateBackend({ kind: 'fs', keyGroupRange, storage, fileStem: stem });
          case 'rocksdb':
            return createRocksDBStateBackend({
              storage,
              operatorId: stem,
              subtask,
              keyGroupRange,
              workDir: join(root, 'rocksdb'),
            });
        }
      };
    },
    async dispose() {
      await rm(root, { recursive: true, force: true });
    },
  };
}
