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
import { DEAD_LETTER_COLUMNS, GENERATOR_COLUMNS } from '../../../engine/graph/check-columns.ts';
import { isNexmarkPort, nexmarkColumnNames } from '../../../engine/graph/nexmark.ts';

const ALIAS_RE = /\s+as\s+[`"]?([A-Za-z_][\w]*)[`"]?\s*$/i;
const IDENT_RE = /^[`"]?([A-Za-z_][\w]*)[`"]?$/;

function selectColumns(list: string, input: string[]): string[] {
  const out: string[] = [];
  for (const part of splitTopLevel(list)) {
    if (part === '*') {
      out.push(...input);
      continue;
    }
    const alias = ALIAS_RE.exec(part);
    if (alias) {
      out.push(alias[1]);
      continue;
    }
    const ident = IDENT_RE.exec(part);
    if (ident) out.push(ident[1]);
  }
  return out;
}

function outputColumns(job: JobDocument, node: JobNode, seen: Set<string>, docPath: string | null): string[] {
  switch (node.type) {
    case 'source.file': {
      const cols = node.config?.columns
        ? Object.keys(node.config.columns)
        : (sampledColumns(node, docPath)?.columns.map((c) => c.name) ?? []);
      const et = node.config?.eventTime?.field;
      return uniq(et ? [...cols, et] : cols);
    }
    case 'source.generator':
      return [...GENERATOR_COLUMNS];
    case 'source.nexmark':
      return []; // per port: see inputColumns
    case 'source.postgres':
      return Object.keys(node.config?.columns ?? {});
    case 'map':
      return uniq(selectColumns(node.config?.select ?? '', inputColumns(job, node.id, seen, docPath)));
    case 'window': {
      const keys = (node.config?.keyBy ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const aggs = selectColumns(node.config?.aggregates ?? '', []);
      return uniq([...keys, 'window_start', 'window_end', ...aggs]);
    }
    case 'sink.file':
    case 'sink.postgres':
    case 'sink.preview':
      return [];
    case 'aggregate': {
      const keys = (node.config?.keyBy ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      return uniq([...keys, ...selectColumns(node.config?.aggregates ?? '', [])]);
    }
    case 'topn':
      return uniq([
        ...(node.config?.window ? ['window_start', 'window_end'] : []),
        ...inputColumns(job, node.id, seen),
        'rownum',
      ]);
    case 'join':
    case 'join.interval':
    case 'join.window':
      // `L.user` is named `user` in the output (Flink's rule for a qualified column).
      return uniq(selectColumns((node.config?.select ?? '').replace(/\b[LR]\.(?=[`"A-Za-z_])/g, ''), []));
    case 'filter': {
      // A condition names columns that must exist upstream even when the source's schema is
      // unknown (a file without declared columns): offer them downstream too.
      const where = typeof node.config?.where === 'string' ? node.config.where : '';
      let named: string[] = [];
      try {
        named = where ? cachedExpressions.referencedColumns('where', where) : [];
      } catch {
        named = [];
      }
      return uniq([...inputColumns(job, node.id, seen, docPath), ...named]);
    }
    default:
      return inputColumns(job, node.id, seen, docPath);
  }
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

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}
