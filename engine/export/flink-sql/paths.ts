/**
 * Data and checkpoint paths as Flink needs them: a URI every TaskManager can reach. Weir resolves a
 * relative path against the job file's folder; on a cluster that folder means nothing, so a
 * relative path becomes `file:///<job folder>/<path>` (a local run, or a shared mount), or, with a
 * `pathPrefix` such as `s3://bucket/weir/`, `<prefix><path>` (the files copied there first).
 */
import { isAbsolute, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExportContext } from './context.ts';

const URI = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The URI for `path`; `what` names it in the warning given when it cannot be made absolute. */
export function flinkPath(ctx: ExportContext, path: string, warnPath: string, nodeId?: string): string {
  if (URI.test(path)) return path;
  const prefix = ctx.opts.pathPrefix;
  if (prefix) {
    const rel = isAbsolute(path)
      ? path.replace(/^\/+/, '')
      : posix.normalize(path.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
    return `${prefix.endsWith('/') ? prefix : `${prefix}/`}${rel}`;
  }
  if (isAbsolute(path)) return pathToFileURL(path).href;
  if (ctx.job.baseDir !== undefined) return pathToFileURL(resolve(ctx.job.baseDir, path)).href;
  ctx.warnJob(
    warnPath,
    `path '${path}' is relative and the job's folder is unknown: Flink needs an absolute URI such as file:///path/${path} (or use --path-prefix)`,
    nodeId,
  );
  return path;
}
