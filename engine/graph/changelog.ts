/**
 * Which edges carry a changelog (Flink's row kinds +I, -U, +U, -D) instead of an append-only
 * stream, and which nodes refuse one. Shared by validation and the designer (changelog edges are
 * drawn differently). Browser-safe.
 *
 * Producers: `source.postgres` in `cdc` mode, `aggregate`, `topn` without a window and outer `join`s (their results change). Pass-through: filter, map, union
 * carry a changelog when any input is one. Consumers: `sink.preview` (materializes the table),
 * `sink.file` only with `format: "changelog-json"`, `sink.postgres` only in upsert mode. Every other node takes append-only input
 * (window, the joins, aggregate, topn).
 */
import type { JobNode, JobProblem } from './types.ts';
import type { GraphIndex } from './check-graph.ts';

/** Nodes whose output is a changelog whatever their input (outer joins retract NULL-padded rows). */
export function producesChangelog(node: JobNode): boolean {
  return (
    node.type === 'aggregate' ||
    // A CDC source emits the table's changes (Flink's postgres-cdc is a changelog source too).
    (node.type === 'source.postgres' && node.config.mode === 'cdc') ||
    (node.type === 'topn' && !node.config.window) ||
    (node.type === 'join' && node.config.kind !== 'inner')
  );
}

function passesChangelog(node: Pick<JobNode, 'type'>): boolean {
  return node.type === 'filter' || node.type === 'map' || node.type === 'union';
}

function acceptsChangelog(node: JobNode): boolean {
  if (node.type === 'sink.preview') return true;
  if (node.type === 'sink.file') return node.config.format === 'changelog-json';
  if (node.type === 'sink.postgres') return node.config.mode === 'upsert';
  return passesChangelog(node);
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
    if (acceptsChangelog(node)) continue;
    for (const e of idx.inputs.get(id) ?? []) {
      const o = e.fromPort === 'out' ? origin.get(e.from) : undefined;
      if (o === undefined) continue;
      const producer = idx.byId.get(o)!.node;
      const via = o === e.from ? '' : ` (through '${e.from}')`;
      const hint =
        node.type === 'sink.file'
          ? `: set nodes[${index}].config.format to "changelog-json"`
          : node.type === 'sink.postgres'
            ? `: set nodes[${index}].config.mode to "upsert" with a key (append mode would keep every retracted row)`
            : `: only filter, map, union, sink.preview and sink.file with format "changelog-json" take one`;
      problems.push({
        path: `edges[${e.edge}]`,
        severity: 'error',
        nodeId: id,
        message: `${node.type} '${id}' cannot take a changelog, but ${producer.type} '${o}' produces one${via}${hint}`,
      });
    }
  }
}
