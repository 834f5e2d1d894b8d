import { hostInfo } from '../host.ts';

/** A path as people want to read it: relative to the workspace when inside it. */
export function displayPath(path: string | null): string | null {
  if (!path) return null;
  const ws = hostInfo()?.workspace;
  if (ws && (path.startsWith(`${ws}/`) || path.startsWith(`${ws}\\`))) return path.slice(ws.length + 1);
  return path;
}
