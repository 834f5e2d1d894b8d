/**
 * The local file or folder a node names in its config (a file source's input, a file sink's
 * folder), from its definition's `localFile`: what the run's path checks and the host's
 * workspace confinement look at, without knowing which types have one. Browser-safe.
 */
import type { JobNode } from './types.ts';
import { isNodeType, nodeDefinition } from './node-types.ts';

export interface LocalFile {
  /** The config key holding the path (`nodes[i].config.<key>`). */
  key: string;
  path: string;
  access: 'read' | 'write';
}

export function localFileOf(node: JobNode): LocalFile | null {
  const spec = isNodeType(node.type) ? nodeDefinition(node.type).localFile : undefined;
  if (!spec) return null;
  const path = (node.config as Record<string, unknown>)[spec.key];
  return typeof path === 'string' ? { key: spec.key, path, access: spec.access } : null;
}
