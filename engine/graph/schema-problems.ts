/**
 * Turns zod issues into `PATH: message` problems a person can act on: unknown fields name the
 * fields that are allowed there, unknown enum values list the allowed values, an unknown node type
 * lists the known ones. Browser-safe.
 */

import type { z } from 'zod';
import type { JobProblem } from './types.ts';
import { jobDocumentSchema } from './schema.ts';
import { describeValue, formatPath, type PathSegment } from './paths.ts';

type Issue = z.core.$ZodIssue & { input?: unknown };

// zod 4 keeps a schema's structure in `_zod.def`; only the parts needed to find object keys.
interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  options?: Array<{ _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  discriminator?: string;
  values?: unknown[];
}

function defOf(s: { _zod: { def: unknown } }): Def {
  return s._zod.def as Def;
}

/** The object schema reached by following `path` through the value itself (for union branches). */
function objectDefAt(path: readonly PathSegment[], root: unknown): Def | null {
  let def: Def | null = defOf(jobDocumentSchema);
  let value: unknown = root;
  const settle = (d: Def, v: unknown): Def | null => {
    while (d.type === 'optional' || d.type === 'nullable' || d.type === 'default') {
      if (!d.innerType) return null;
      d = defOf(d.innerType);
    }
    if (d.type === 'union' && d.options) {
      const key = d.discriminator;
      const tag = key && v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
      for (const o of d.options) {
        const od = defOf(o);
        const lit = key ? od.shape?.[key] : undefined;
        if (lit && defOf(lit).values?.includes(tag)) return settle(od, v);
      }
      return null;
    }
    return d;
  };
  def = settle(def, value);
  for (const seg of path) {
    if (!def) return null;
    value = value && typeof value === 'object' ? (value as Record<string | number, unknown>)[seg] : undefined;
    if (def.type === 'array' && typeof seg === 'number' && def.element) def = settle(defOf(def.element), value);
    else if (def.type === 'object' && typeof seg === 'string' && def.shape?.[seg])
      def = settle(defOf(def.shape[seg]), value);
    else return null;
  }
  return def;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let v = root;
  for (const seg of path) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

function list(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

function typeName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    default:
      return `a ${expected}`;
  }
}

function messageFor(issue: Issue, root: unknown): string {
  const path = issue.path as PathSegment[];
  const input = issue.input !== undefined ? issue.input : valueAt(root, path);
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `missing required field (expected ${typeName(issue.expected)})`;
      return `expected ${typeName(issue.expected)}, got ${describeValue(input)}`;
    case 'invalid_value':
      if (input === undefined) {
        return issue.values.length === 1
          ? `missing required field (expected ${JSON.stringify(issue.values[0])})`
          : `missing required field (allowed: ${list(issue.values)})`;
      }
      if (issue.values.length === 1) return `expected ${JSON.stringify(issue.values[0])}, got ${describeValue(input)}`;
      return `unknown value ${describeValue(input)} (allowed: ${list(issue.values)})`;
    case 'invalid_union': {
      const u = issue as { note?: string; discriminator?: string; options?: unknown[] };
      if (u.discriminator !== undefined && u.note === 'No matching discriminator') {
        const tag = valueAt(root, path);
        const options = u.options ?? [];
        const what =
          u.discriminator === 'type' ? 'node type' : u.discriminator === 'kind' ? 'window kind' : u.discriminator;
        if (tag === undefined) return `missing ${what} (known: ${list(options)})`;
        return `unknown ${what} ${describeValue(tag)} (known: ${list(options)})`;
      }
      return issue.message;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'must not be empty' : `must have at least ${min} characters`;
      if (issue.origin === 'array') return `must have at least ${min} items`;
      return `must be ${issue.inclusive ? '>=' : '>'} ${min}, got ${describeValue(input)}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must have at most ${max} characters`;
      if (issue.origin === 'array') return `must have at most ${max} items`;
      return `must be ${issue.inclusive ? '<=' : '<'} ${max}, got ${describeValue(input)}`;
    }
    default:
      return issue.message;
  }
}

function nodeIdOf(root: unknown, path: readonly PathSegment[]): string | undefined {
  if (path[0] !== 'nodes' || typeof path[1] !== 'number') return undefined;
  const id = valueAt(root, ['nodes', path[1], 'id']);
  return typeof id === 'string' ? id : undefined;
}

/** One problem per issue; an unrecognized-keys issue becomes one problem per unknown field. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], root: unknown): JobProblem[] {
  const out: JobProblem[] = [];
  for (const raw of issues) {
    const issue = raw;
    const path = issue.path as PathSegment[];
    const nodeId = nodeIdOf(root, path);
    if (issue.code === 'unrecognized_keys') {
      const def = objectDefAt(path, root);
      const allowed = def?.shape ? Object.keys(def.shape) : null;
      for (const key of issue.keys) {
        out.push({
          path: formatPath([...path, key]),
          message: `unknown field '${key}'${allowed ? ` (allowed here: ${allowed.join(', ')})` : ''}`,
          severity: 'error',
          ...(nodeId !== undefined ? { nodeId } : {}),
        });
      }
      continue;
    }
    out.push({
      path: formatPath(path),
      message: messageFor(issue, root),
      severity: 'error',
      ...(nodeId !== undefined ? { nodeId } : {}),
    });
  }
  return out;
}
