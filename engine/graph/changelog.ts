/**
 * Which edges carry a changelog (Flink's row kinds +I, -U, +U, -D) instead of an append-only
 * stream, and which nodes refuse one. Shared by validation, the runtime (operators compile
 * retracting accumulators when `inputIsChangelog`) and the designer (changelog edges are drawn
 * differently). Browser-safe. Each type states its own rule in its definition's `changelog`
 * (engine/nodes/<type>/definition.ts); this file follows the edges. Today's rules:
 *
 * Producers: `source.postgres` in `cdc` mode, `aggregate`, `topn` without a window and outer `join`s (their results change).
 * Pass-through: filter, map, union carry a changelog when any input is one.
 * Consumers:
 * - `aggregate` retracts -U/-D rows from their group (Flink's GroupAggFunction with retraction);
 *   a group whose row count drops to 0 emits -D of its last result and is forgotten.
 * - `window` with tumbling or sliding windows (Flink 1.19+, FLINK-20281): +I/+U add the row to
 *   the window(s) of its event time, -U/-D take it back out of those of theirs; a window still
 *   fires once at the watermark, and one left with no rows emits nothing. Its output stays
 *   append-only. A change for a window already cleaned up is late: dropped and counted (the
 *   `late` port is append-only, so it may not be wired). Session windows refuse a changelog
 *   (a retraction could split a merged session).
 * - `sink.preview` (materializes the table), `sink.file` only with `format: "changelog-json"`,
 *   `sink.postgres` only in upsert mode.
 * Every other node (the joins, topn) takes append-only input.
 */
import type { JobDocument, JobNode, JobProblem, NormalizedJob } from './types.ts';
import { checkGraph, type GraphIndex } from './check-graph.ts';
import type { ChangelogRule } from '../nodes/definition.ts';
import { isNodeType, nodeDefinition } from './node-types.ts';

/** The changelog rule of a node's type (its definition); none for a type this version does not know. */
function ruleOf(node: Pick<JobNode, 'type'>): ChangelogRule<unknown> | undefined {
  return isNodeType(node.type) ? nodeDefinition(node.type).changelog : undefined;
}

/** Nodes whose output is a changelog whatever their input (outer joins retract NULL-padded rows). */
export function producesChangelog(node: JobNode): boolean {
  return ruleOf(node)?.produces?.(node.config) ?? false;
}

function hasLatePort(node: Pick<JobNode, 'type'>): boolean {
  return isNodeType(node.type) && nodeDefinition(node.type).ports.outputs.includes('late');
}

function passesChangelog(node: Pick<JobNode, 'type'>): boolean {
  return ruleOf(node)?.passes ?? false;
}

function acceptsChangelog(node: JobNode): boolean {
  return ruleOf(node)?.accepts?.(node.config) ?? passesChangelog(node);
}

/** True when a changelog flows into `nodeId` (its operator must then retract -U/-D rows). */
export function inputIsChangelog(job: JobDocument | NormalizedJob, nodeId: string): boolean {
  const idx = checkGraph(job as JobDocument, []);
  if (!idx.acyclic) return false;
  const origin = changelogOrigins(idx);
  return (idx.inputs.get(nodeId) ?? []).some((e) => e.fromPort === 'out' && origin.has(e.from));
}

/**
 * For every node whose `out` port carries a changelog: the id of the node that produces it (the
 * nearest aggregate/topn upstream through pass-through nodes). Expects topological `idx.order`.
 */
export function changelogOrigins(idx: Pick<GraphIndex, 'byId' | 'inputs' | 'order'>): Map<string, string> {
  const origin = new Map<string, string>();
  for (const id of idx.order) {
    const node = idx.byId.get(id)?.node;
    if (!node) continue;
    if (producesChangelog(node)) {
      origin.set(id, id);
      continue;
    }
    if (!passesChangelog(node)) continue;
    for (const e of idx.inputs.get(id) ?? []) {
      const o = e.fromPort === 'out' ? origin.get(e.from) : undefined;
      if (o !== undefined) {
        origin.set(id, o);
        break;
      }
    }
  }
  return origin;
}

/** Edge indexes (into `doc.edges`) that carry a changelog. */
export function changelogEdges(idx: Pick<GraphIndex, 'byId' | 'inputs' | 'order'>): Set<number> {
  const origin = changelogOrigins(idx);
  const edges = new Set<number>();
  for (const ins of idx.inputs.values()) {
    for (const e of ins) if (e.fromPort === 'out' && origin.has(e.from)) edges.add(e.edge);
  }
  return edges;
}

export function checkChangelog(idx: GraphIndex, problems: JobProblem[]): void {
  if (!idx.acyclic) return;
  const origin = changelogOrigins(idx);
  for (const id of idx.order) {
    const { node, index } = idx.byId.get(id)!;
    const accepts = acceptsChangelog(node);
    for (const e of idx.inputs.get(id) ?? []) {
      const o = e.fromPort === 'out' ? origin.get(e.from) : undefined;
      if (o === undefined) continue;
      const producer = idx.byId.get(o)!.node;
      const via = o === e.from ? '' : ` (through '${e.from}')`;
      if (accepts) {
        if (hasLatePort(node)) checkLatePort(idx, id, `${producer.type} '${o}'${via}`, problems);
        continue;
      }
      const hint =
        ruleOf(node)?.refusalHint?.(node.config, (field) => `nodes[${index}].config.${field}`) ??
        `: only filter, map, union, aggregate, window (tumbling or sliding), sink.preview, sink.blackhole, sink.file with format "changelog-json" and sink.postgres in upsert mode take one`;
      problems.push({
        path: `edges[${e.edge}]`,
        severity: 'error',
        nodeId: id,
        message: `${node.type} '${id}' cannot take a changelog, but ${producer.type} '${o}' produces one${via}${hint}`,
      });
    }
  }
}

/** The `late` port carries plain rows: with a changelog input late changes are dropped and counted. */
function checkLatePort(idx: GraphIndex, id: string, producer: string, problems: JobProblem[]): void {
  for (const e of idx.outputs.get(id) ?? []) {
    if (e.fromPort !== 'late') continue;
    problems.push({
      path: `edges[${e.edge}]`,
      severity: 'error',
      nodeId: id,
      message: `${idx.byId.get(id)!.node.type} '${id}' takes a changelog from ${producer}, so its late changes (retractions too) are dropped and counted: the append-only 'late' port cannot carry them; remove this edge`,
    });
  }
}
