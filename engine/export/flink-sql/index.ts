/**
 * `weir export --format flink-sql`: a NormalizedJob as one script for Flink's SQL client (Flink
 * 1.19+): SET statements for the settings, a CREATE TABLE per source and sink, a CREATE VIEW per
 * transformation, and one EXECUTE STATEMENT SET with the INSERTs. Every statement is preceded by a
 * comment naming the Weir node it came from. What Flink SQL cannot express is never dropped
 * silently: it is listed in `warnings` (and at the top of the script) with the node's path.
 * The output is a pure function of the job (and the sampled data files), so golden files pin it.
 */
import type { EventTimeConfig, JobProblem, NormalizedJob } from '../../graph/types.ts';
import { isSource } from '../../graph/ports.ts';
import { definitionOf } from '../../graph/node-types.ts';
import { tokenize } from '../../sql/lexer.ts';
import { ExportContext, type ExportNode, type FlinkExportOptions, type Relation } from './context.ts';
import { idleTimeoutOf } from './event-time.ts';
import { commentText, quoteIdent, unquoteIdent } from './identifiers.ts';
import { settingsStatements } from './settings.ts';
import { unionOf } from './transforms.ts';
import { nexmarkRelationKey } from './nexmark-source.ts';
import { isNexmarkPort } from '../../graph/nexmark.ts';
import { exporterOf } from './node-exporters.ts';
import { versionLabel } from './versions.ts';
import { plannerTypes, withPlannerTypes } from './planner-types.ts';

export type { Column, FlinkExportOptions } from './context.ts';
export { FLINK_VERSIONS, DEFAULT_FLINK_VERSION, isFlinkVersion, type FlinkVersion } from './versions.ts';

export interface FlinkExport {
  text: string;
  warnings: JobProblem[];
}

export function exportFlinkSql(job: NormalizedJob, opts: FlinkExportOptions = {}): FlinkExport {
  const ctx = new ExportContext(job, opts);
  for (const node of job.nodes) {
    const exporter = exporterOf(node);
    if (exporter.kind === 'source') ctx.sourceColumns.set(node.id, exporter.columns(ctx, node));
  }
  ctx.planner = plannerTypes(job, ctx.sourceColumns);
  ctx.rowtimeName = freeName('rowtime', namesInJob(ctx));
  const settings = settingsStatements(ctx, idleTimeout(ctx));
  for (const node of topologicalOrder(job)) {
    let done: boolean;
    try {
      done = emitNode(ctx, node);
      const rel = ctx.relations.get(node.id);
      if (done && rel && exporterOf(node).kind !== 'source')
        ctx.relations.set(node.id, {
          ...rel,
          columns: withPlannerTypes(rel.columns, (col) => ctx.planner.output(node.id, col)),
        });
    } catch (e) {
      ctx.warn(node, undefined, `not exported: ${e instanceof Error ? e.message : String(e)}`);
      done = false;
    }
    // The node's config as a comment, so that `weir import` can bring the node back.
    if (!done)
      ctx.emit(
        `${ctx.origin(node)}: left out of the script (see the warnings above)\n-- weir node config: ${commentText(JSON.stringify(node.config))}`,
      );
  }
  return { text: assemble(ctx, settings), warnings: ctx.warnings };
}

/** Emits the statements of one node; false when the node cannot be part of the script. */
function emitNode(ctx: ExportContext, node: ExportNode): boolean {
  const exporter = exporterOf(node);
  if (exporter.kind === 'source') {
    exporter.emit(ctx, node);
    return true;
  }
  const inputs: Relation[] = [];
  const ports: Array<'left' | 'right' | undefined> = [];
  ctx.job.edges.forEach((e, i) => {
    if (e.to !== node.id) return;
    const from = ctx.node(e.from);
    if (e.fromPort === 'late' || e.fromPort === 'bad') {
      const msg =
        e.fromPort === 'late'
          ? `its late port has no equivalent in Flink SQL (window aggregations drop late records); edges[${i}] to '${e.to}' is left out`
          : `its bad port (dead letters) has no equivalent in Flink SQL (formats skip or fail on bad lines); edges[${i}] to '${e.to}' is left out`;
      if (from) ctx.warn(from, undefined, msg);
      else ctx.warnJob(`edges[${i}]`, msg);
      return;
    }
    const rel = ctx.relations.get(isNexmarkPort(e.fromPort) ? nexmarkRelationKey(e.from, e.fromPort) : e.from);
    if (rel) {
      inputs.push(rel);
      ports.push(e.toPort);
    }
  });
  if (inputs.length === 0) {
    ctx.warn(
      node,
      undefined,
      'left out: none of its inputs exists in the exported script (fed only by a late port or by nodes left out)',
    );
    return false;
  }
  // A union is no operator of its own; sinks set their parallelism in their table's options.
  const ownParallelism = exporter.kind === 'inputs' || (exporter.kind === 'input' && exporter.ownParallelism);
  if (!ownParallelism && node.parallelism !== ctx.job.settings.parallelism) {
    ctx.warn(
      node,
      'parallelism',
      `parallelism ${node.parallelism} cannot be set per operator in Flink SQL; it runs with parallelism.default (${ctx.job.settings.parallelism})`,
    );
  }
  if (exporter.kind === 'inputs') return exporter.emit(ctx, node, inputs);
  if (exporter.kind === 'join') {
    const left = inputs[ports.indexOf('left')],
      right = inputs[ports.indexOf('right')];
    if (!left || !right) {
      ctx.warn(node, undefined, 'left out: one of its inputs does not exist in the exported script');
      return false;
    }
    return exporter.emit(ctx, node, left, right);
  }
  const input = inputs.length === 1 ? inputs[0] : unionOf(ctx, node, inputs, quoteIdent(`${node.id}__input`));
  return exporter.emit(ctx, node, input);
}

/** Sources first, then each node after all of its inputs; ties keep the job's node order. */
function topologicalOrder(job: NormalizedJob): ExportNode[] {
  const indegree = new Map(job.nodes.map((n) => [n.id, 0]));
  for (const e of job.edges) indegree.set(e.to, (indegree.get(e.to) ?? 0) + 1);
  const done = new Set<string>();
  const order: ExportNode[] = [];
  while (order.length < job.nodes.length) {
    const next = job.nodes.find((n) => !done.has(n.id) && indegree.get(n.id) === 0);
    if (!next) break; // a cycle: validation rejects those; the rest is left out
    done.add(next.id);
    order.push(next);
    for (const e of job.edges) if (e.from === next.id) indegree.set(e.to, (indegree.get(e.to) ?? 1) - 1);
  }
  return order;
}

/** One idle timeout for all sources (Flink SQL sets it per job); the smallest wins. */
function idleTimeout(ctx: ExportContext): number | null {
  const found: Array<[ExportNode, number]> = [];
  for (const node of ctx.job.nodes) {
    if (!isSource(node.type)) continue;
    const t = idleTimeoutOf((node.config as { eventTime?: EventTimeConfig }).eventTime);
    if (t !== null) found.push([node, t]);
  }
  if (found.length === 0) return null;
  const min = Math.min(...found.map(([, t]) => t));
  for (const [node, t] of found) {
    if (t !== min)
      ctx.warn(
        node,
        'config.eventTime.idleTimeout',
        `idleTimeout ${t} ms: Flink SQL has one idle timeout for all sources; ${min} ms is used`,
      );
  }
  return min;
}

/** Every identifier the job mentions, so that the event-time column gets a name nobody uses. */
function namesInJob(ctx: ExportContext): Set<string> {
  const names = new Set<string>();
  for (const cols of ctx.sourceColumns.values()) for (const c of cols) names.add(c.name.toLowerCase());
  for (const node of ctx.job.nodes) {
    const texts = definitionOf(node).expressions?.(node.config) ?? [];
    for (const text of texts) {
      try {
        for (const t of tokenize(text))
          if (t.kind === 'ident' || t.kind === 'quoted') names.add(unquoteIdent(t.text).toLowerCase());
      } catch {
        /* reported where the expression is exported */
      }
    }
  }
  return names;
}

function freeName(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

function assemble(ctx: ExportContext, settings: string[]): string {
  const job = ctx.job;
  const head = [
    `-- Apache Flink SQL script for the Weir job '${commentText(job.name)}' (${job.format}).`,
    `-- Generated by \`weir export --format flink-sql --flink-version ${ctx.version}\` for ${versionLabel(ctx.version)}:`,
    '--   ./bin/sql-client.sh -f <this file>',
    ctx.opts.pathPrefix
      ? `-- Relative data and checkpoint paths are under ${commentText(ctx.opts.pathPrefix)} (copy the job's files there).`
      : "-- Relative data and checkpoint paths are file:/// URIs under the job's folder (Weir resolves them there too).",
    '--',
  ];
  if (ctx.warnings.length === 0) head.push('-- Everything in this job has a Flink SQL equivalent: no warnings.');
  else {
    head.push(`-- Warnings (${ctx.warnings.length}): what Flink SQL cannot express as Weir runs it.`);
    for (const w of ctx.warnings) head.push(`--   ${w.path}: ${commentText(w.message)}`);
  }
  const parts = [head.join('\n'), settings.join('\n'), ...ctx.statements];
  if (ctx.inserts.length > 0) parts.push(`EXECUTE STATEMENT SET\nBEGIN\n${ctx.inserts.join('\n\n')}\nEND;`);
  else parts.push('-- The job has no sink in the exported script: nothing to execute.');
  return parts.join('\n\n') + '\n';
}
