/**
 * What a field widget needs, derived from the one config path its descriptor names: the value,
 * the input's test id (`f-<path>`), the validator's message for `config.<path>` and the edit.
 * Nothing else in the form spells a path, so the three cannot drift apart.
 */
import type { JobNode } from '../../../engine/graph/types.ts';
import type { FieldConfig, FieldDescriptor } from '../../../engine/nodes/fields.ts';
import { editConfig } from './edit.ts';

/** Validator message for a config path relative to `config` (`window.size`), or null. */
export type ErrorAt = (path: string) => string | null;

/** What every field widget is given besides its descriptor. */
export interface FieldContext<D extends FieldDescriptor = FieldDescriptor> {
  field: D;
  node: JobNode;
  config: FieldConfig;
  /** Columns reaching the node's input (empty for a source). */
  columns: readonly string[];
  err: ErrorAt;
}

export interface Binding {
  value: unknown;
  testId: string;
  error: string | null;
  /** Writes the value; a cleared field (`undefined`) writes `empty`, or removes the key without it. */
  onChange: (value: unknown) => void;
}

export function readAt(config: FieldConfig, path: string): unknown {
  let at: unknown = config;
  for (const key of path.split('.')) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

export function bind(node: JobNode, config: FieldConfig, err: ErrorAt, path: string, empty?: unknown): Binding {
  return {
    value: readAt(config, path),
    testId: `f-${path}`,
    error: err(path),
    onChange: (v) => editConfig(node.id, path.split('.'), v === undefined ? empty : v),
  };
}
