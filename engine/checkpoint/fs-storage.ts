/**
 * Host-side filesystem checkpoint storage (`fs` and `rocksdb` state backends). Layout and rules in
 * fs-layout.ts; `_metadata` is written last, shared files are reference-counted (shared-registry.ts).
 */
import { copyFile, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { writeFileAtomic, isTempFileName } from './atomic-file.ts';
import {
  fullBytesOf,
  readMetadata,
  sharedPathsOf,
  verifyStateFile,
  METADATA_FORMAT,
  serializeMetadata,
  type CheckpointMetadata,
} from './checkpoint-metadata.ts';
import {
  METADATA_FILE,
  SAVEPOINTS_DIR,
  SHARED_DIR,
  checkpointFolder,
  parseCheckpointFolder,
  parseSavepointFolder,
} from './fs-layout.ts';
import { SharedStateRegistry } from './shared-registry.ts';
import { assertOnlyFiles, claimCheckpointRoot } from './storage-ownership.ts';
import {
  CheckpointRestoreError,
  type CheckpointLayout,
  type CheckpointStorage,
  type CompletedCheckpoint,
  type PendingCheckpointData,
} from '../contracts/checkpoint-storage.ts';
import type { RetainedCheckpoint, SubtaskStateSnapshot } from '../contracts/checkpoint.ts';

interface FolderEntry {
  id: number;
  kind: 'checkpoint' | 'savepoint';
  folder: string; /* relative */
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function listDir(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch {
    return [];
  }
}

export class FsCheckpointStorage implements CheckpointStorage {
  readonly kind = 'filesystem' as const;
  private readonly registry = new SharedStateRegistry();
  /** Incomplete checkpoint folders (no `_metadata`) the last `open` removed, reported on resume. */
  private removedIncomplete: string[] = [];

  /** `root` is `<checkpointing.dir>/<jobName>` (see `jobRoot`). */
  constructor(
    readonly root: string,
    readonly jobName: string,
    /** Written into every checkpoint's metadata, for the compatibility checks of a later restore. */
    private readonly layout?: CheckpointLayout,
  ) {}

  private abs(rel: string): string {
    return join(this.root, rel);
  }

  /** Checkpoint and savepoint folders present, complete or not. */
  private async folders(): Promise<FolderEntry[]> {
    const out: FolderEntry[] = [];
    for (const name of await listDir(this.root)) {
      const id = parseCheckpointFolder(name);
      if (id !== null) out.push({ id, kind: 'checkpoint', folder: name });
    }
    for (const name of await listDir(this.abs(SAVEPOINTS_DIR))) {
      const sp = parseSavepointFolder(name);
      if (sp) out.push({ id: sp.id, kind: 'savepoint', folder: `${SAVEPOINTS_DIR}/${name}` });
    }
    return out.sort((a, b) => b.id - a.id);
  }

  async open(): Promise<void> {
    this.registry.clear();
    this.removedIncomplete = [];
    // Cleanup below deletes files: only in a root this job's storage marked as its own.
    await claimCheckpointRoot(this.root, this.jobName);
    let allReadable = true;
    for (const entry of await this.folders()) {
      const metaPath = join(this.abs(entry.folder), METADATA_FILE);
      if (!(await exists(metaPath))) {
        // Incomplete: the process died before the metadata was written.
        await assertOnlyFiles(this.abs(entry.folder));
        await rm(this.abs(entry.folder), { recursive: true, force: true });
        this.removedIncomplete.push(
          `${entry.kind} ${entry.id} (${this.abs(entry.folder)}) had no ${METADATA_FILE} (missing, ` +
            `or the process died writing it): it is unusable and was removed`,
        );
        continue;
      }
      try {
        const meta = await readMetadata(metaPath);
        this.registry.register(meta.id, sharedPathsOf(meta.states));
      } catch {
        allReadable = false;
      }
    }
    // Orphaned shared files (from failed or crashed checkpoints). If some metadata could not be read
    // we cannot know what it references, so nothing is deleted.
    if (!allReadable) return;
    for (const name of await listDir(this.abs(SHARED_DIR))) {
      const rel = `${SHARED_DIR}/${name}`;
      if (isTempFileName(name) || !this.registry.isReferenced(rel)) await rm(this.abs(rel), { force: true });
    }
  }

  checkSubtaskState(): void {
    // Files are already on disk; nothing to refuse here.
  }

  async store(data: PendingCheckpointData): Promise<CompletedCheckpoint> {
    const folder = checkpointFolder(data.id, data.kind, data.barrierTimestamp);
    const states = data.kind === 'savepoint' ? await this.makeSelfContained(folder, data.states) : data.states;
    const time = Date.now();
    const bytes = fullBytesOf(states);
    const meta: CheckpointMetadata = {
      format: METADATA_FORMAT,
      job: this.jobName,
      id: data.id,
      kind: data.kind,
      triggerTime: data.triggerTime,
      time,
      folder,
      bytes,
      states,
      ...(this.layout ? { layout: this.layout } : {}),
    };
    const shared = sharedPathsOf(states);
    this.registry.register(data.id, shared);
    try {
      await writeFileAtomic(join(this.abs(folder), METADATA_FILE), serializeMetadata(meta));
    } catch (err) {
      this.registry.unregister(data.id, shared);
      throw err;
    }
    return {
      id: data.id,
      kind: data.kind,
      triggerTime: data.triggerTime,
      time,
      location: this.abs(folder),
      bytes,
      states,
      layout: this.layout,
    };
  }

  /** Savepoints never share files: copy any file living outside the savepoint's folder into it. */
  private async makeSelfContained(folder: string, states: SubtaskStateSnapshot[]): Promise<SubtaskStateSnapshot[]> {
    const out: SubtaskStateSnapshot[] = [];
    for (const s of states) {
      if (!s.keyed?.files?.some((f) => f.shared || !f.path.startsWith(folder + '/'))) {
        out.push(s);
        continue;
      }
      const files = [];
      for (const f of s.keyed.files) {
        if (!f.shared && f.path.startsWith(folder + '/')) {
          files.push(f);
          continue;
        }
        const target = `${folder}/${s.operatorId.replace(/[^A-Za-z0-9._-]/g, '_')}-${s.subtask}-${basename(f.path)}`;
        await copyFile(this.abs(f.path), this.abs(target));
        files.push({ ...f, path: target, shared: false });
      }
      out.push({ ...s, keyed: { ...s.keyed, files } });
    }
    return out;
  }

  async discard(checkpoint: CompletedCheckpoint): Promise<void> {
    if (checkpoint.kind === 'savepoint') return; // savepoints belong to the user
    const folder = checkpointFolder(checkpoint.id, 'checkpoint', 0);
    // Metadata first: a crash mid-way leaves an incomplete folder (cleaned on open), never a
    // checkpoint whose files are half gone.
    await rm(join(this.abs(folder), METADATA_FILE), { force: true });
    await rm(this.abs(folder), { recursive: true, force: true });
    const relShared = sharedPathsOf(checkpoint.states).map((p) => this.relative(p));
    for (const path of this.registry.unregister(checkpoint.id, relShared)) {
      await rm(this.abs(path), { force: true });
    }
  }

  async discardFailed(data: PendingCheckpointData): Promise<void> {
    // Shared files a failed checkpoint wrote are kept: the next incremental checkpoint of the same
    // backend may build on them. Unreferenced ones are removed the next time the storage opens.
    await rm(this.abs(checkpointFolder(data.id, data.kind, data.barrierTimestamp)), { recursive: true, force: true });
  }

  private relative(path: string): string {
    const prefix = this.root + sep;
    return path.startsWith(prefix) ? path.slice(prefix.length).split(sep).join('/') : path;
  }

  async listRetained(): Promise<RetainedCheckpoint[]> {
    const out: RetainedCheckpoint[] = [];
    for (const entry of await this.folders()) {
      const metaPath = join(this.abs(entry.folder), METADATA_FILE);
      if (!(await exists(metaPath))) continue;
      try {
        const meta = await readMetadata(metaPath);
        out.push({ id: meta.id, kind: meta.kind, path: this.abs(entry.folder), time: meta.time, bytes: meta.bytes });
      } catch {
        // unreadable metadata: not restorable, not listed (load() on it reports the cause)
      }
    }
    return out;
  }

  async listCompleted(): Promise<CompletedCheckpoint[]> {
    const out: CompletedCheckpoint[] = [];
    for (const entry of await this.folders()) {
      const metaPath = join(this.abs(entry.folder), METADATA_FILE);
      if (!(await exists(metaPath))) continue;
      try {
        const m = await readMetadata(metaPath);
        out.push({
          id: m.id,
          kind: m.kind,
          triggerTime: m.triggerTime,
          time: m.time,
          location: this.abs(entry.folder),
          bytes: m.bytes,
          states: m.states,
          layout: m.layout,
        });
      } catch {
        // unreadable: neither adopted nor deleted
      }
    }
    return out;
  }

  async latest(): Promise<CompletedCheckpoint | null> {
    for (const entry of await this.folders()) {
      if (await exists(join(this.abs(entry.folder), METADATA_FILE))) return this.load(this.abs(entry.folder));
    }
    return null;
  }

  /**
   * For `--resume`: the newest checkpoint or savepoint that loads and verifies completely. Each one
   * that does not is reported by name and skipped; `highestId` counts them too, so new checkpoint
   * ids never reuse a damaged checkpoint's folder. (Whether falling back is exact is the sinks'
   * rule: connectors/file-sink-output.ts.)
   */
  async latestUsable(
    report: (message: string) => void,
  ): Promise<{ checkpoint: CompletedCheckpoint | null; highestId: number }> {
    let highestId = 0;
    let checkpoint: CompletedCheckpoint | null = null;
    for (const m of this.removedIncomplete.splice(0)) report(m);
    for (const entry of await this.folders()) {
      highestId = Math.max(highestId, entry.id);
      if (checkpoint || !(await exists(join(this.abs(entry.folder), METADATA_FILE)))) continue;
      try {
        checkpoint = await this.load(this.abs(entry.folder));
      } catch (err) {
        report(`${entry.kind} ${entry.id} is unusable: ${(err as Error).message}`);
      }
    }
    return { checkpoint, highestId };
  }

  async resumeLatest(): Promise<CompletedCheckpoint> {
    const cp = await this.latest();
    if (!cp) {
      throw new CheckpointRestoreError(
        `nothing to resume: no completed checkpoint or savepoint of job '${this.jobName}' in ${this.root}`,
      );
    }
    return cp;
  }

  async load(path: string): Promise<CompletedCheckpoint> {
    return loadCheckpoint(path);
  }
}

/**
 * Loads a checkpoint or savepoint folder (or its `_metadata`) from anywhere, verifying every file's
 * size and sha256. File paths in the result are absolute.
 */
export async function loadCheckpoint(path: string): Promise<CompletedCheckpoint> {
  let folderAbs = resolve(path);
  if (basename(folderAbs) === METADATA_FILE) folderAbs = dirname(folderAbs);
  const metaPath = join(folderAbs, METADATA_FILE);
  if (!(await exists(folderAbs))) throw new CheckpointRestoreError(`checkpoint ${folderAbs} does not exist`);
  if (!(await exists(metaPath))) {
    throw new CheckpointRestoreError(
      `checkpoint ${folderAbs} is incomplete: it has no ${METADATA_FILE} file (the process stopped while writing it)`,
    );
  }
  const meta = await readMetadata(metaPath);
  // The job root is the folder above the checkpoint's own relative folder (1 or 2 levels).
  const depth = meta.folder.split('/').length;
  let root = folderAbs;
  for (let i = 0; i < depth; i++) root = dirname(root);
  const absOf = (rel: string): string =>
    rel.startsWith(meta.folder + '/') ? join(folderAbs, rel.slice(meta.folder.length + 1)) : resolve(root, rel);
  const states: SubtaskStateSnapshot[] = [];
  const verified = new Set<string>();
  for (const s of meta.states) {
    if (!s.keyed?.files) {
      states.push(s);
      continue;
    }
    const files = [];
    for (const f of s.keyed.files) {
      const abs = absOf(f.path);
      if (!verified.has(abs)) await verifyStateFile(abs, f);
      verified.add(abs);
      files.push({ ...f, path: abs });
    }
    states.push({ ...s, keyed: { ...s.keyed, files } });
  }
  return {
    id: meta.id,
    kind: meta.kind,
    triggerTime: meta.triggerTime,
    time: meta.time,
    location: folderAbs,
    bytes: meta.bytes,
    states,
    layout: meta.layout,
  };
}
