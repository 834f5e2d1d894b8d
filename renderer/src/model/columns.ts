/**
 * Column names known at a node's input, for completions in the inspector's SQL fields: declared
 * file columns (else the columns sampled from the file's data, see sampledColumns.ts), the
 * generator's fixed columns, map aliases, window keys and aggregate aliases, each type's
 * `completionColumns` rule (engine/nodes/<type>/definition.ts). Unknown stays unknown (an empty list).
 */
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';
import { isNodeType, nodeDefinition } from '../../../engine/graph/node-types.ts';
import type { CompletionContext } from '../../../engine/nodes/definition.ts';
import { cachedExpressions } from './expressionCache.ts';
import { sampledColumns } from './sampledColumns.ts';

import { DEAD_LETTER_COLUMNS } from '../../../engine/graph/check-columns.ts';
import { isNexmarkPort, nexmarkColumnNames } from '../../../engine/graph/nexmark.ts';
import { uniq } from '../../../engine/nodes/text.ts';

/** What a node offers downstream: its type's `completionColumns` rule, else its input's columns. */
function outputColumns(job: JobDocument, node: JobNode, seen: Set<string>, docPath: string | null): string[] {
  const input = () => inputColumns(job, node.id, seen, docPath);
  const rule = isNodeType(node.type) ? nodeDefinition(node.type).completionColumns : undefined;
  if (!rule) return input();
  return (rule as (config: unknown, ctx: CompletionContext) => string[])(node.config ?? {}, {
    input,
    sampled: () => sampledColumns(node, docPath)?.columns.map((c) => c.name),
    referenced: (kind, text) => {
      try {
        return cachedExpressions.referencedColumns(kind, text);
      } catch {
        return [];
      }
    },
  });
}

/**
 * Columns arriving at `nodeId` (the union over its inputs' outputs). `docPath`: the document's
 * path, which sampled source columns belong to (null: an unsaved document).
 */
export function inputColumns(
  job: JobDocument,
  nodeId: string,
  seen = new Set<string>(),
  docPath: string | null = null,
): string[] {
  if (seen.has(nodeId)) return []; // a cycle is reported by validation; do not loop here
  seen.add(nodeId);
  const cols: string[] = [];
  for (const e of job.edges) {
    if (e.to !== nodeId) continue;
    const src = job.nodes.find((n) => n.id === e.from);
    if (!src) continue;
    // A window's `late` output carries its input records unchanged; `bad` carries dead letters.
    cols.push(
      ...(e.fromPort === 'late'
        ? inputColumns(job, src.id, new Set(seen), docPath)
        : e.fromPort === 'bad'
          ? DEAD_LETTER_COLUMNS
          : isNexmarkPort(e.fromPort)
            ? nexmarkColumnNames(e.fromPort)
            : outputColumns(job, src, new Set(seen), docPath)),
    );
  }
  return uniq(cols);
}

/**
 * Completions of a two-input node: each input's columns with its prefix (`L.user`, `R.country`),
 * plus `window_start` / `window_end` for a window join.
 */
export function joinInputColumns(
  job: JobDocument,
  nodeId: string,
  windowColumns: boolean,
  docPath: string | null = null,
): string[] {
  const out: string[] = windowColumns ? ['window_start', 'window_end'] : [];
  for (const port of ['left', 'right'] as const) {
    for (const e of job.edges) {
      if (e.to !== nodeId || e.toPort !== port) continue;
      const src = job.nodes.find((n) => n.id === e.from);
      if (!src) continue;
      const cols =
        e.fromPort === 'late'
          ? inputColumns(job, src.id, undefined, docPath)
          : e.fromPort === 'bad'
            ? DEAD_LETTER_COLUMNS
            : outputColumns(job, src, new Set([nodeId]), docPath);
      out.push(...cols.map((c) => `${port === 'left' ? 'L' : 'R'}.${c}`));
    }
  }
  return uniq(out);
}

/** The unprefixed columns of one input port (for a join's key fields). */
export function portColumns(
  job: JobDocument,
  nodeId: string,
  port: 'left' | 'right',
  docPath: string | null = null,
): string[] {
  const prefix = port === 'left' ? 'L.' : 'R.';
  return joinInputColumns(job, nodeId, false, docPath)
    .filter((c) => c.startsWith(prefix))
    .map((c) => c.slice(2));
}
