import { hostInfo } from '../host.ts';

/** A path as people want to read it: relative to the workspace when inside it. */
export function displayPath(path: string | null): string | null {
  if (!path) return null;
  const ws = hostInfo()?.workspace;
  if (ws && (path.startsWith(`${ws}/`) || path.startsWith(`${ws}\\`))) return path.slice(ws.length + 1);
  return path;
}

/** The folder a job's relative paths resolve against: its file's folder, the workspace when unsaved. */
export function baseFolder(path: string | null): string | null {
  const ws = hostInfo()?.workspace ?? null;
  if (!path) return ws;
  const abs = /^([\\/]|[A-Za-z]:[\\/])/.test(path) ? path : ws ? `${ws}/${path}` : null;
  if (!abs) return null;
  const i = Math.max(abs.lastIndexOf('/'), abs.lastIndexOf('\\'));
  return i > 0 ? abs.slice(0, i) : abs;
}
