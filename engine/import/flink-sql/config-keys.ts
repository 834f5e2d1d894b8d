/**
 * Settings the importer reads from Weir's own hints (`-- weir: stateTtl=…` and the like) land on
 * whichever node's config schema has the key, so a new node type with `stateTtl` or an `eventTime`
 * gets them without a line here naming it.
 */
import type { JobNode } from '../../graph/types.ts';
import { nodeDefinition } from '../../graph/node-types.ts';

function configKeys(node: JobNode): readonly string[] {
  const shape = (nodeDefinition(node.type).configSchema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** Sets `key` when the node's type has it; returns whether it did. */
export function setConfigKey(node: JobNode, key: string, value: unknown): boolean {
  if (!configKeys(node).includes(key)) return false;
  (node.config as Record<string, unknown>)[key] = value;
  return true;
}

/** The node's event-time settings when its type has them and this node declares event time. */
export function eventTimeOf(node: JobNode): { set(key: string, value: unknown): void } | null {
  if (!configKeys(node).includes('eventTime')) return null;
  const et = (node.config as { eventTime?: Record<string, unknown> }).eventTime;
  return et ? { set: (key, value) => void (et[key] = value) } : null;
}
