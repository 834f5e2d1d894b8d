/**
 * Crash-safe file writing: bytes go to a temporary sibling, are fsynced, then renamed over the final
 * name and the folder is fsynced. A reader therefore sees either no file or the complete file, never
 * a torn one, even after SIGKILL or power loss. The sha256 is computed while writing so it can be
 * recorded in the checkpoint metadata without reading the file again.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

export class AtomicFileWriter {
  private bytes = 0;
  private done = false;

  private constructor(
    readonly finalPath: string,
    private readonly tempPath: string,
    private readonly handle: FileHandle,
    private readonly hash: Hash,
  ) {}

  static async create(finalPath: string): Promise<AtomicFileWriter> {
    await mkdir(dirname(finalPath), { recursive: true });
    // Leading dot + .tmp: listings and cleanup recognise an unfinished write.
    const tempPath = join(dirname(finalPath), `.${basename(finalPath)}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await open(tempPath, 'wx');
    return new AtomicFileWriter(finalPath, tempPath, handle, createHash('sha256'));
  }

  get written(): number {
    return this.bytes;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.done) throw new Error(`write after close: ${this.finalPath}`);
    this.hash.update(chunk);
    this.bytes += chunk.length;
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await this.handle.write(chunk, offset, chunk.length - offset);
      offset += bytesWritten;
    }
  }

  /** fsync, rename into place, fsync the folder. */
  async commit(): Promise<WrittenFile> {
    if (this.done) throw new Error(`file already closed: ${this.finalPath}`);
    this.done = true;
    try {
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    await rename(this.tempPath, this.finalPath);
    await fsyncDir(dirname(this.finalPath));
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.handle.close().catch(() => undefined);
    await rm(this.tempPath, { force: true });
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export async function writeFileAtomic(finalPath: string, data: Uint8Array | string): Promise<WrittenFile> {
  const writer = await AtomicFileWriter.create(finalPath);
  try {
    await writer.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    return await writer.commit();
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
