/**
 * The bundled examples (`examples/index.json`: `[{ id, name, description, path }]`, `path`
 * relative to the examples folder). Opening one copies its folder into the workspace once, so
 * its outputs and checkpoints land there and a read-only install (an asar) is never written to.
 */
import { promises as fs } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { HostError } from '../common/errors.ts';

export interface ExampleEntry {
  id: string;
  name: string;
  description: string;
  path: string;
}

export async function readExampleIndex(examplesDir: string): Promise<ExampleEntry[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(join(examplesDir, 'index.json'), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new HostError('io_error', `examples/index.json: ${(err as Error).message}`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { examples?: unknown })?.examples;
  if (!Array.isArray(list)) throw new HostError('io_error', 'examples/index.json: expected an array of examples');
  return list.flatMap((e: Record<string, unknown>) =>
    typeof e?.id === 'string' && typeof e.path === 'string'
      ? [
          {
            id: e.id,
            name: String(e.name ?? e.id),
            description: String(e.description ?? ''),
            path: resolve(examplesDir, e.path),
          },
        ]
      : [],
  );
}

/** Copies the example's folder to `<workspace>/<id>/` unless it is there; returns the job path. */
export async function materializeExample(examplesDir: string, id: string, workspace: string): Promise<string> {
  const entry = (await readExampleIndex(examplesDir)).find((e) => e.id === id);
  if (!entry) throw new HostError('not_found', `no example named '${id}'`);
  const srcDir = dirname(entry.path);
  const rel = relative(resolve(examplesDir), srcDir);
  if (rel === '' || rel.startsWith('..') || rel.includes(`..${sep}`)) {
    throw new HostError('internal', `example '${id}': its job must sit in its own folder under examples/`);
  }
  const destDir = join(resolve(workspace), id);
  const dest = join(destDir, relative(srcDir, entry.path));
  const exists = await fs.stat(dest).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await fs.mkdir(destDir, { recursive: true });
    const skip = await otherJobsFiles(srcDir, entry.path);
    await fs.cp(srcDir, destDir, {
      recursive: true,
      force: false,
      errorOnExist: false,
      filter: (from) => !skip.has(resolve(from)),
    });
  }
  return dest;
}

/**
 * A folder that holds several examples' jobs (examples/nexmark: q0 ... q22) is copied for one of
 * them without the others: every top-level file named after another job (`q7.weir.json`, `q7.sql`,
 * `q7.reference.sql`) stays behind; shared files and folders (data/, README.md) come along.
 */
async function otherJobsFiles(srcDir: string, jobPath: string): Promise<Set<string>> {
  const stem = (name: string) => name.split('.')[0];
  const names = await fs.readdir(srcDir);
  const own = stem(relative(srcDir, jobPath));
  const others = new Set(
    names
      .filter((n) => n.endsWith('.weir.json'))
      .map(stem)
      .filter((s) => s !== own),
  );
  return new Set(names.filter((n) => others.has(stem(n))).map((n) => resolve(srcDir, n)));
}
