/** A path or URI of the script as a Weir path: relative to the job's folder where it lies inside it. */
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobBuilder } from './builder.ts';
import type { Pos } from './tree.ts';

export function jobPath(b: JobBuilder, uri: string, pos: Pos): string {
  let path = uri;
  if (/^file:\/\//i.test(uri)) {
    try {
      path = fileURLToPath(uri);
    } catch {
      return uri;
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) {
    b.problem(
      pos,
      `'${uri}' is not a local path: Weir reads and writes local files (copy the data, or change the path)`,
    );
    return uri;
  }
  if (b.baseDir !== undefined && isAbsolute(path)) {
    const rel = relative(b.baseDir, path);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return path;
}
