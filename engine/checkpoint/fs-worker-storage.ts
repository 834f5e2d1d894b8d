/**
 * Task-side filesystem checkpoint storage: state backends write their snapshot files here, in the
 * task process, while processing continues. Every file is written atomically (temp + fsync +
 * rename) and its sha256 travels back in the acknowledgement, to be recorded in `_metadata`.
 */
import { createReadStream } from 'node:fs';
import { AtomicFileWriter } from './atomic-file.ts';
import { SHARED_DIR, checkpointFolder, resolveIn } from './fs-layout.ts';
import type { CheckpointBarrier } from '../contracts/checkpoint.ts';
import type {
  CheckpointKind,
  CheckpointWorkerStorage,
  StateFileRef,
  StateFileSink,
} from '../contracts/checkpoint-storage.ts';

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

export class FsCheckpointWorkerStorage implements CheckpointWorkerStorage {
  readonly kind = 'filesystem' as const;
  /** Barriers seen, by id; pruned to the most recent few (at most one checkpoint is in flight). */
  private readonly barriers = new Map<number, CheckpointBarrier>();

  constructor(readonly root: string) {}

  beginCheckpoint(barrier: CheckpointBarrier): void {
    this.barriers.set(barrier.id, barrier);
    if (this.barriers.size > 16) {
      const oldest = Math.min(...this.barriers.keys());
      this.barriers.delete(oldest);
    }
  }

  kindOf(checkpointId: number): CheckpointKind {
    return this.barriers.get(checkpointId)?.kind ?? 'checkpoint';
  }

  private folderOf(checkpointId: number): string {
    const b = this.barriers.get(checkpointId);
    return checkpointFolder(checkpointId, b?.kind ?? 'checkpoint', b?.timestamp ?? 0);
  }

  async createStateFile(checkpointId: number, name: string, opts: { shared?: boolean } = {}): Promise<StateFileSink> {
    if (!SAFE_NAME.test(name) || name.startsWith('.') || name === '_metadata') {
      throw new Error(`invalid state file name '${name}': use letters, digits, '.', '_' and '-' (not leading '.')`);
    }
    // Savepoints are self-contained: never write into shared/.
    const shared = !!opts.shared && this.kindOf(checkpointId) !== 'savepoint';
    const path = shared ? `${SHARED_DIR}/${name}` : `${this.folderOf(checkpointId)}/${name}`;
    const writer = await AtomicFileWriter.create(resolveIn(this.root, path));
    return {
      path,
      write: (chunk) => writer.write(chunk),
      commit: async (): Promise<StateFileRef> => {
        const { bytes, sha256 } = await writer.commit();
        return { path, bytes, sha256, shared };
      },
      abort: () => writer.abort(),
    };
  }

  async writeStateFile(
    checkpointId: number,
    name: string,
    bytes: Uint8Array,
    opts?: { shared?: boolean },
  ): Promise<StateFileRef> {
    const sink = await this.createStateFile(checkpointId, name, opts);
    try {
      await sink.write(bytes);
      return await sink.commit();
    } catch (err) {
      await sink.abort();
      throw err;
    }
  }

  readStateFile(path: string): AsyncIterable<Buffer> {
    return createReadStream(this.resolve(path), { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>;
  }

  resolve(path: string): string {
    return resolveIn(this.root, path);
  }
}
