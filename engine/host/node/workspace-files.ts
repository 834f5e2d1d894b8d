/**
 * Job files (and Flink SQL scripts to import) under a workspace folder: the only files the host API
 * lets a UI list, read or write.
 * A path is allowed when, after resolving `..` and every symlink, it lies inside one of the
 * allowed roots (or is a file the user granted through a native dialog). Anything else is
 * `forbidden_path`, whatever the spelling.
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FileEntry } from '../common/api.ts';
import { HostError } from '../common/errors.ts';

const MAX_JOB_BYTES = 16 * 1024 * 1024;
const SKIP_DIRS = new Set(['node_modules', 'checkpoints', 'dist', '.git']);

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

/** The real path of `p`, resolving symlinks of its deepest existing ancestor. */
async function realPathOf(p: string): Promise<string> {
  let existing = p;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR')
        throw err;
      const parent = dirname(existing);
      if (parent === existing) return p;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

export class WorkspaceFiles {
  readonly workspace: string;
  private readonly readOnlyRoots: string[];
  private readonly granted = new Set<string>();
  /** Folders picked in a native dialog, per document (real path of the job file; '' = unsaved). */
  private readonly grantedFolders = new Map<string, Set<string>>();
  private realRoots: Promise<{ workspace: string; readOnly: string[] }> | null = null;

  constructor(workspace: string, readOnlyRoots: string[] = []) {
    this.workspace = resolve(workspace);
    this.readOnlyRoots = readOnlyRoots.map((r) => resolve(r));
  }

  /** A file chosen by the user in a native dialog may be read and written wherever it is. */
  async grant(path: string): Promise<void> {
    this.granted.add(await realPathOf(resolve(path)));
  }

  /**
   * A folder the user picked in a native dialog for one document: that document's runs may read
   * and write inside it, no other document's. `document`: the job file (null: the unsaved one).
   * Returns the folder's real path.
   */
  async grantFolder(folder: string, document: string | null): Promise<string> {
    const real = await realPathOf(resolve(folder));
    const key = document ? await realPathOf(resolve(document)) : '';
    const set = this.grantedFolders.get(key) ?? new Set<string>();
    set.add(real);
    this.grantedFolders.set(key, set);
    return real;
  }

  /** The folders granted for `document` (see grantFolder). */
  async foldersFor(document: string | null): Promise<string[]> {
    const key = document ? await realPathOf(resolve(document)) : '';
    return [...(this.grantedFolders.get(key) ?? [])];
  }

  private roots() {
    this.realRoots ??= (async () => ({
      workspace: await realPathOf(this.workspace),
      readOnly: await Promise.all(this.readOnlyRoots.map(realPathOf)),
    }))();
    return this.realRoots;
  }

  /**
   * Absolute real path of `p` (relative paths resolve against `base`, default the workspace), or
   * `forbidden_path`. `extraRoot` admits one more folder (a job's own folder, for its checkpoints);
   * `extraRoots` more (folders granted for the job's document).
   */
  async resolve(
    p: string,
    mode: 'read' | 'write',
    opts: { base?: string; extraRoot?: string; extraRoots?: readonly string[] } = {},
  ): Promise<string> {
    if (typeof p !== 'string' || p.includes('\0'))
      throw new HostError('forbidden_path', 'path is not a valid file name');
    const abs = isAbsolute(p) ? resolve(p) : resolve(opts.base ?? this.workspace, p);
    const real = await realPathOf(abs);
    const roots = await this.roots();
    const extras = await Promise.all(
      [...(opts.extraRoot ? [opts.extraRoot] : []), ...(opts.extraRoots ?? [])].map(realPathOf),
    );
    const ok =
      inside(roots.workspace, real) ||
      this.granted.has(real) ||
      extras.some((r) => inside(r, real)) ||
      (mode === 'read' && roots.readOnly.some((r) => inside(r, real)));
    if (!ok) throw new HostError('forbidden_path', `${p}: outside the workspace ${this.workspace}`);
    return real;
  }

  async list(dir = ''): Promise<FileEntry[]> {
    const start = await this.resolve(dir || '.', 'read');
    const out: FileEntry[] = [];
    const walk = async (d: string, depth: number): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(d, { withFileTypes: true });
      } catch (err) {
        if (d === start)
          throw new HostError(
            'not_found',
            `${dir || '.'}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (err as Error).message}`,
          );
        return;
      }
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const p = join(d, e.name);
        if (e.isDirectory() && depth < 4 && !SKIP_DIRS.has(e.name)) await walk(p, depth + 1);
        else if (e.isFile() && (e.name.endsWith('.weir.json') || e.name.endsWith('.sql'))) {
          const st = await fs.stat(p).catch(() => null);
          if (st) out.push({ path: p, name: relative(start, p) || e.name, modified: st.mtimeMs });
        }
      }
    };
    await walk(start, 0);
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A job or script file's text: a file inside the allowed roots, at most MAX_JOB_BYTES. */
  private async readText(p: string, what: string): Promise<{ real: string; text: string }> {
    const real = await this.resolve(p, 'read');
    try {
      const st = await fs.stat(real);
      if (!st.isFile()) throw new HostError('not_found', `${p}: not a file`);
      if (st.size > MAX_JOB_BYTES)
        throw new HostError('invalid_job', `${p}: ${st.size} bytes is too large for a ${what}`);
      return { real, text: await fs.readFile(real, 'utf8') };
    } catch (err) {
      if (err instanceof HostError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      throw new HostError(
        code === 'ENOENT' ? 'not_found' : 'io_error',
        `${p}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      );
    }
  }

  async readJob(p: string): Promise<{ path: string; job: unknown }> {
    const { real, text } = await this.readText(p, 'job file');
    try {
      return { path: real, job: JSON.parse(text) };
    } catch (err) {
      throw new HostError('invalid_job', `${p}: not valid JSON (${(err as Error).message})`);
    }
  }

  /** A Flink SQL script to import (a `.sql` file: nothing else is read through this door). */
  async readSqlScript(p: string): Promise<{ path: string; sql: string }> {
    if (!/\.sql$/i.test(p)) throw new HostError('forbidden_path', `${p}: a Flink SQL script must end in .sql`);
    const { real, text } = await this.readText(p, 'script');
    return { path: real, sql: text };
  }

  /** Atomic: written to a temp file beside it, then renamed over it. */
  async writeJob(p: string, job: unknown): Promise<{ path: string }> {
    if (!p.endsWith('.json')) throw new HostError('forbidden_path', `${p}: job files must end in .weir.json`);
    const real = await this.resolve(p, 'write');
    const tmp = `${real}.${process.pid}.${Date.now()}.tmp`;
    try {
      await fs.mkdir(dirname(real), { recursive: true });
      await fs.writeFile(tmp, `${JSON.stringify(job, null, 2)}\n`, 'utf8');
      await fs.rename(tmp, real);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => {});
      throw new HostError('io_error', `${p}: cannot write (${(err as Error).message})`);
    }
    return { path: real };
  }
}
