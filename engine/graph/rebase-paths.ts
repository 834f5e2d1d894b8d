/**
 * Save As into another folder: a job's relative input paths resolve against its file's folder, so
 * they would silently point at other files. `rebaseInputPaths` rewrites each relative path a node
 * reads (its definition's `localFile` with access 'read') so it names the same file from the new
 * folder, and lists what it changed. Output folders (file sinks) and checkpoints stay relative:
 * they go beside the new file, as a copy of the job should. Browser-safe: plain string paths, '/'
 * or '\' separators, absolute when starting with '/', '\' or a drive letter.
 */
import type { JobDocument, JobNode } from './types.ts';
import { localFileOf } from './local-files.ts';

export interface RebasedPath {
  nodeId: string;
  key: string;
  from: string;
  to: string;
}

const isAbsolute = (p: string) => /^([\\/]|[A-Za-z]:[\\/])/.test(p);
/** URIs (s3://, file://) and home-relative paths are not relative to the job's folder. */
const isRelativePath = (p: string) =>
  p !== '' && !isAbsolute(p) && !/^[a-z][a-z0-9+.-]*:/i.test(p) && !p.startsWith('~');

function segments(p: string): string[] {
  const out: string[] = [];
  for (const s of p.split(/[\\/]+/)) {
    if (s === '' || s === '.') continue;
    if (s === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(s);
  }
  return out;
}

/** `file` (relative to `fromDir`) as a path relative to `toDir`; both folders absolute. */
export function relocate(file: string, fromDir: string, toDir: string): string {
  const target = segments(`${fromDir}/${file}`);
  const base = segments(toDir);
  let i = 0;
  while (i < target.length && i < base.length && target[i] === base[i]) i++;
  const rel = [...Array<string>(base.length - i).fill('..'), ...target.slice(i)].join('/');
  return rel || '.';
}

export function rebaseInputPaths(
  job: JobDocument,
  fromDir: string,
  toDir: string,
): { job: JobDocument; rebased: RebasedPath[] } {
  const rebased: RebasedPath[] = [];
  if (segments(fromDir).join('/') === segments(toDir).join('/')) return { job, rebased };
  const nodes = job.nodes.map((n): JobNode => {
    const f = localFileOf(n);
    if (!f || f.access !== 'read' || !isRelativePath(f.path)) return n;
    const to = relocate(f.path, fromDir, toDir);
    if (to === f.path) return n;
    rebased.push({ nodeId: n.id, key: f.key, from: f.path, to });
    return { ...n, config: { ...(n.config as Record<string, unknown>), [f.key]: to } } as JobNode;
  });
  return { job: rebased.length ? { ...job, nodes } : job, rebased };
}
