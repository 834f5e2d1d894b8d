/** Test harness: RocksDB backends writing snapshots to a real filesystem checkpoint storage in a temp dir. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsCheckpointWorkerStorage } from '../../../engine/checkpoint/fs-worker-storage.ts';
import { createRocksDBStateBackend, type RocksDBStateBackend } from '../../../engine/state/rocksdb-backend.ts';
import type { KeyGroupRange } from '../../../engine/contracts/keyed-state.ts';
import type { StateBackendHarness } from './conformance.ts';

export interface RocksHarness extends StateBackendHarness {
  dir: string;
  storage: FsCheckpointWorkerStorage;
  create(
    range: KeyGroupRange,
    opts?: { subtask?: number; operatorId?: string; maxDeltaChain?: number; maxTrackedChanges?: number },
  ): Promise<RocksDBStateBackend>;
}

export async function rocksHarness(incremental: boolean): Promise<RocksHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'weir-rocks-test-'));
  const storage = new FsCheckpointWorkerStorage(join(dir, 'checkpoints', 'job'));
  let n = 0;
  return {
    dir,
    storage,
    create: (range, opts = {}) =>
      createRocksDBStateBackend({
        storage,
        operatorId: opts.operatorId ?? `op${n++}`,
        subtask: opts.subtask ?? 0,
        keyGroupRange: range,
        workDir: join(dir, 'work'),
        incremental,
        maxDeltaChain: opts.maxDeltaChain,
        maxTrackedChanges: opts.maxTrackedChanges,
      }),
    beginCheckpoint: (id, kind = 'checkpoint') =>
      storage.beginCheckpoint({ id, kind, timestamp: 1_700_000_000_000 + id }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
