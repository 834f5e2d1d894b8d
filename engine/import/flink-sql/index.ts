/**
 * `importFlinkSql`: a Flink SQL script (SET, CREATE TABLE with filesystem/datagen/print connectors
 * and WATERMARK, CREATE VIEW, INSERT INTO ... SELECT, window TVFs and group windows, GROUP BY,
 * ROW_NUMBER Top-N, regular / interval / window joins, UNION ALL, EXECUTE STATEMENT SET) as a laid-out weir.job/v1 document. The script is parsed with
 * dt-sql-parser's FlinkSQL grammar; every statement or clause without a Weir node is reported with
 * its line and column, never dropped silently. A script Weir exported imports back to the same job
 * (node ids, names and order come from the export's comments), so export -> import -> export gives
 * the same script. Node only (samples data files to decide which column types to declare).
 */
import type { JobDocument, JobNode } from '../../graph/types.ts';
import { JobBuilder } from './builder.ts';
import { layOut } from './layout.ts';
import { readHints } from './hints.ts';
import { weirDuration } from './values.ts';
import { readQuery } from './query.ts';
import { readSettings } from './settings.ts';
import {
  readStatements,
  type InsertStatement,
  type ScriptProblem,
  type SetStatement,
  type TableStatement,
} from './statements.ts';
import { importTable } from './tables.ts';
import { importQuery, isPassThrough } from './views.ts';
import { toSinkColumns } from './sink-columns.ts';
import type { Relation } from './builder.ts';
import { previewSink } from '../../nodes/sink-preview/definition.ts';
import { eventTimeOf, setConfigKey } from './config-keys.ts';

export type { ScriptProblem } from './statements.ts';

export interface ImportOptions {
  /** The folder the job file will be in: file:/// paths inside it become relative paths. */
  baseDir?: string;
  /** Job name when the script does not carry Weir's header. */
  name?: string;
}

export interface FlinkImport {
  job: JobDocument;
  /** Everything that has no Weir node or differs, with 1-based line and column in the script. */
  problems: ScriptProblem[];
}

export function importFlinkSql(sql: string, opts: ImportOptions = {}): FlinkImport {
  const { statements, problems: syntax, jobName } = readStatements(sql);
  const b = new JobBuilder(sql, opts.baseDir);
  b.problems.push(...syntax);
  const sets = statements.filter((s): s is SetStatement => s.kind === 'set');
  const { settings, idleTimeout } = readSettings(b, sets);
  const hints = readHints(b, sql);
  const targets = new Set(statements.filter((s): s is InsertStatement => s.kind === 'insert').map((s) => s.target));
  for (const s of statements) {
    if (s.kind === 'table') importTable(b, s, targets.has(s.name));
    else if (s.kind === 'view') {
      const rel = importQuery(b, s.name, readQuery(sql, s.query), s.origin, s.pos);
      if (rel) b.relations.set(s.name, rel);
    } else if (s.kind === 'insert') importInsert(b, s);
    else if (s.kind === 'other')
      b.problem(s.pos, `statement has no Weir equivalent; left out: ${s.text.split('\n')[0].slice(0, 80)}`, 'error');
  }
  if (idleTimeout !== null) {
    for (const { node } of b.nodes) eventTimeOf(node)?.set('idleTimeout', idleTimeout);
  }
  for (const e of hints.lateEdges) {
    if (b.nodes.some((n) => n.node.id === e.from) && b.nodes.some((n) => n.node.id === e.to))
      b.edges.splice(Math.min(e.index, b.edges.length), 0, { from: e.from, to: e.to, fromPort: 'late' });
  }
  for (const n of b.nodes) {
    const p = n.origin ? hints.parallelism.get(n.origin.index) : undefined;
    if (p !== undefined) n.node.parallelism = p;
    const idle = n.origin ? hints.idleTimeout.get(n.origin.index) : undefined;
    if (idle !== undefined) eventTimeOf(n.node)?.set('idleTimeout', weirDuration(idle));
    const lateness = n.origin ? hints.allowedLateness.get(n.origin.index) : undefined;
    if (lateness !== undefined) setConfigKey(n.node, 'allowedLateness', weirDuration(lateness));
    const ttl = n.origin ? hints.stateTtl.get(n.origin.index) : undefined;
    if (ttl !== undefined) setConfigKey(n.node, 'stateTtl', weirDuration(ttl));
    const limit = n.origin ? hints.previewLimit.get(n.origin.index) : undefined;
    if (limit !== undefined && n.node.type === previewSink.type) n.node.config.limit = limit;
  }
  if (hints.memoryStateLimit !== null) settings.memoryStateLimit = hints.memoryStateLimit;
  const ordered = [...b.nodes]
    .sort((x, y) => (x.origin && y.origin ? x.origin.index - y.origin.index : x.order - y.order))
    .map((n) => n.node);
  layOut(ordered, b.edges);
  const job: JobDocument = {
    format: 'weir.job/v1',
    name: jobName ?? opts.name ?? 'imported',
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    nodes: ordered,
    edges: b.edges,
  };
  const problems = b.problems.sort((x, y) => x.line - y.line || x.column - y.column);
  return { job, problems };
}

function importInsert(b: JobBuilder, s: InsertStatement): void {
  const sink = b.relations.get(s.target);
  if (!sink) {
    b.problem(s.pos, `INSERT INTO ${s.target}: no sink table of that name was imported`, 'error');
    return;
  }
  const q = readQuery(b.sql, s.query);
  let rel: Relation | null = null;
  // The export's INSERT selects the view's columns (casting uncertain ones): a plain edge.
  if (q.kind === 'select' && 'table' in q.from && q.where === null && q.groupBy === null) {
    const input = b.relation(q.from.table, s.pos, `INSERT INTO ${s.target}`);
    if (!input) return;
    if ((q.star && !input.computed) || isPassThrough(q.items, input)) rel = input;
  }
  rel ??= importQuery(b, `${s.target}_query`, q, null, s.pos);
  if (rel) b.connect(toSinkColumns(b, s.target, rel, sink, s.pos), sink.nodes[0]);
}

export type { JobNode, TableStatement };
