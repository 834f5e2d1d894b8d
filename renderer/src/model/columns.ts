/**
 * Column names known at a node's input, for completions in the inspector's SQL fields: declared
 * file columns (else the columns sampled from the file's data, see sampledColumns.ts), the
 * generator's fixed columns, map aliases, window keys and aggregate aliases. Unknown stays unknown
 * (an empty list).
 */
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';
import { splitTopLevel } from '../../../engine/graph/expressions.ts';
import { cachedExpressions } from './expressionCache.ts';
import { sampledColumns } from './sampledColumns.ts';

/** Columns the generator source emits (see engine/connectors generator). */
export { GENERATOR_COLUMNS } from '../../../engine/graph/check-columns.ts';
import { GENERATOR_COLUMNS } from '../../../engine/graph/check-columns.ts';

const ALIAS_RE = /\s+as\s+[`"]?([A-Za-z_][\w]*)[`"]?\s*$/i;
const IDENT_RE = /^[`"]?([A-Za-z_][\w]*)[`"]?$/;

function selectColumns(list: string, input: string[]): string[] {
  const out: string[] = [];
  for (const part of splitTopLevel(list)) {
    if (part === '*') { out.push(...input); continue; }
    const alias = ALIAS_RE.exec(part);
    if (alias) { out.push(alias[1]); continue; }
    const ident = IDENT_RE.exec(part);
    if (ident) out.push(ident[1]);
  }
  return out;
}

function outputColumns(job: JobDocument, node: JobNode, seen: Set<string>, docPath: string | null): string[] {
  switch (node.type) {
    case 'source.file': {
      const cols = node.config?.columns ? Object.keys(node.config.columns) : sampledColumns(node, docPath)?.columns.map((c) => c.name) ?? [];
      const et = node.config?.eventTime?.field;
      return uniq(et ? [...cols, et] : cols);
    }
    case 'source.generator': return [...GENERATOR_COLUMNS];
    case 'map': return uniq(selectColumns(node.config?.select ?? '', inputColumns(job, node.id, seen, docPath)));
    case 'window': {
      const keys = (node.config?.keyBy ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const aggs = selectColumns(node.config?.aggregates ?? '', []);
      return uniq([...keys, 'window_start', 'window_end', ...aggs]);
    }
    case 'sink.file':
    case 'sink.preview': return [];
    case 'filter': {
      // A condition names columns that must exist upstream even when the source's schema is
      // unknown (a file without declared columns): offer them downstream too.
      const where = typeof node.config?.where === 'string' ? node.config.where : '';
      let named: string[] = [];
      try { named = where ? cachedExpressions.referencedColumns('where', where) : []; } catch { named = []; }
      return uniq([...inputColumns(job, node.id, seen, docPath), ...named]);
    }
    default: return inputColumns(job, node.id, seen, docPath);
  }
}

/**
 * Columns arriving at `nodeId` (the union over its inputs' outputs). `docPath`: the document's
 * path, which sampled source columns belong to (null: an unsaved document).
 */
export function inputColumns(job: JobDocument, nodeId: string, seen = new Set<string>(), docPath: string | null = null): string[] {
  if (seen.has(nodeId)) return []; // a cycle is reported by validation; do not loop here
  seen.add(nodeId);
  const cols: string[] = [];
  for (const e of job.edges) {
    if (e.to !== nodeId) continue;
    const src = job.nodes.find((n) => n.id === e.from);
    if (!src) continue;
    // A window's `late` output carries its input records unchanged.
    cols.push(...(e.fromPort === 'late' ? inputColumns(job, src.id, new Set(seen), docPath) : outputColumns(job, src, new Set(seen), docPath)));
  }
  return uniq(cols);
}

function uniq(xs: string[]): string[] { return [...new Set(xs)]; }
