/**
 * Structural checks on a schema-valid job: unique ids, edges between existing nodes and ports,
 * input/output counts per node type, no cycles, unused outputs (warning), parallelism bounds.
 * Browser-safe.
 */

import type { JobDocument, JobNode, JobProblem } from './types.ts';
import { DEFAULT_SETTINGS } from './types.ts';
import { PORTS, inputPorts, isSink, isSource, outputPorts, type OutputPort } from './ports.ts';
import { isNexmarkPort } from './nexmark.ts';
import { localFileOf } from './local-files.ts';
import { union as unionNode } from '../nodes/union/definition.ts';
import { topoOrder } from './topo-order.ts';

export interface GraphIndex {
  /** First node with each id. */
  byId: Map<string, { node: JobNode; index: number }>;
  /** Incoming edges per node id (only edges whose both ends exist). */
  inputs: Map<string, Array<{ from: string; fromPort: OutputPort; toPort?: 'left' | 'right'; edge: number }>>;
  /** Outgoing edges per node id (only edges whose both ends exist). */
  outputs: Map<string, Array<{ to: string; fromPort: OutputPort; edge: number }>>;
  /** True when the graph has no cycle; later checks need a topological order. */
  acyclic: boolean;
  /** Node ids in topological order (complete only when acyclic). */
  order: string[];
}

const err = (path: string, message: string, nodeId?: string): JobProblem => ({
  path,
  message,
  severity: 'error',
  ...(nodeId !== undefined ? { nodeId } : {}),
});
const warn = (path: string, message: string, nodeId?: string): JobProblem => ({
  path,
  message,
  severity: 'warning',
  ...(nodeId !== undefined ? { nodeId } : {}),
});

function checkIds(doc: JobDocument, problems: JobProblem[]): GraphIndex['byId'] {
  const byId: GraphIndex['byId'] = new Map();
  doc.nodes.forEach((node, index) => {
    const first = byId.get(node.id);
    if (first) {
      problems.push(err(`nodes[${index}].id`, `duplicate node id '${node.id}' (also nodes[${first.index}])`, node.id));
    } else {
      byId.set(node.id, { node, index });
    }
  });
  if (!doc.nodes.some((n) => isSource(n.type))) problems.push(err('nodes', 'a job needs at least one source node'));
  if (!doc.nodes.some((n) => isSink(n.type))) problems.push(err('nodes', 'a job needs at least one sink node'));
  return byId;
}

function checkEdges(doc: JobDocument, byId: GraphIndex['byId'], problems: JobProblem[]) {
  const inputs: GraphIndex['inputs'] = new Map();
  const outputs: GraphIndex['outputs'] = new Map();
  const seen = new Set<string>();
  doc.edges.forEach((edge, i) => {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    const port = edge.fromPort ?? 'out';
    let ok = true;
    if (!from) {
      problems.push(err(`edges[${i}].from`, `unknown node '${edge.from}'`));
      ok = false;
    }
    if (!to) {
      problems.push(err(`edges[${i}].to`, `unknown node '${edge.to}'`));
      ok = false;
    }
    if (from && isSink(from.node.type)) {
      problems.push(
        err(`edges[${i}].from`, `'${edge.from}' is a ${from.node.type} node: sinks have no outputs`, edge.from),
      );
      ok = false;
    } else if (from && !outputPorts(from.node.type).includes(port)) {
      problems.push(
        err(
          `edges[${i}].fromPort`,
          `'${port}' is only available on window nodes ('${edge.from}' is a ${from.node.type} node)`,
          edge.from,
        ),
      );
      ok = false;
    }
    if (to && isSource(to.node.type)) {
      problems.push(err(`edges[${i}].to`, `'${edge.to}' is a ${to.node.type} node: sources take no inputs`, edge.to));
      ok = false;
    } else if (to) {
      const named = inputPorts(to.node.type);
      if (named.length > 0 && edge.toPort === undefined) {
        problems.push(
          err(
            `edges[${i}].toPort`,
            `'${edge.to}' is a ${to.node.type} node: set toPort to ${named.map((p) => `'${p}'`).join(' or ')}`,
            edge.to,
          ),
        );
        ok = false;
      } else if (named.length === 0 && edge.toPort !== undefined) {
        problems.push(
          err(
            `edges[${i}].toPort`,
            `'${edge.to}' is a ${to.node.type} node: it has no input port '${edge.toPort}' (only joins have left/right)`,
            edge.to,
          ),
        );
        ok = false;
      }
    }
    const key = `${edge.from}\u0000${port}\u0000${edge.to}\u0000${edge.toPort ?? ''}`;
    if (ok && seen.has(key)) {
      problems.push(err(`edges[${i}]`, `duplicate edge '${edge.from}' -> '${edge.to}'`, edge.to));
      ok = false;
    }
    if (!ok) return;
    seen.add(key);
    const ins = inputs.get(edge.to) ?? [];
    ins.push({ from: edge.from, fromPort: port, ...(edge.toPort ? { toPort: edge.toPort } : {}), edge: i });
    inputs.set(edge.to, ins);
    const outs = outputs.get(edge.from) ?? [];
    outs.push({ to: edge.to, fromPort: port, edge: i });
    outputs.set(edge.from, outs);
  });
  return { inputs, outputs };
}

function checkDegrees(idx: Pick<GraphIndex, 'byId' | 'inputs' | 'outputs'>, problems: JobProblem[]) {
  for (const [id, { node, index }] of idx.byId) {
    const n = idx.inputs.get(id)?.length ?? 0;
    const spec = PORTS[node.type];
    const path = `nodes[${index}]`;
    if (spec.inputs) {
      for (const port of spec.inputs) {
        const k = (idx.inputs.get(id) ?? []).filter((e) => e.toPort === port).length;
        if (k !== 1)
          problems.push(err(path, `the ${port} input of ${node.type} '${id}' needs exactly one edge, it has ${k}`, id));
      }
    } else if (spec.maxInputs === 1 && n !== 1) {
      problems.push(
        err(
          path,
          `a ${node.type} node needs exactly one input, '${id}' has ${n}${n > 1 ? ' (merge streams with a union first)' : ''}`,
          id,
        ),
      );
    } else if (n < spec.minInputs) {
      problems.push(
        err(
          path,
          node.type === unionNode.type ? `a union needs at least two inputs, '${id}' has ${n}` : `'${id}' has no input`,
          id,
        ),
      );
    }
    // A node's main output: `out`, or any of a Nexmark source's three ports.
    const main = (p: OutputPort) => p === 'out' || isNexmarkPort(p);
    if (!isSink(node.type) && !(idx.outputs.get(id) ?? []).some((o) => main(o.fromPort))) {
      problems.push(warn(path, `the output of '${id}' is not connected: its records go nowhere`, id));
    }
  }
}

/** A topological order; on a cycle, walks the remaining nodes to name one cycle. */
function checkCycles(idx: Pick<GraphIndex, 'byId' | 'inputs' | 'outputs'>, problems: JobProblem[]) {
  const edges = [...idx.outputs].flatMap(([from, outs]) => outs.map((o) => ({ from, to: o.to })));
  const order = topoOrder(idx.byId.keys(), edges);
  if (order.length === idx.byId.size) return { acyclic: true, order };
  // Every remaining node has an input from another remaining node: walk backwards until a repeat.
  const done = new Set(order);
  const remaining = new Set([...idx.byId.keys()].filter((id) => !done.has(id)));
  let cur = [...remaining][0];
  const path: string[] = [];
  const at = new Map<string, number>();
  while (!at.has(cur)) {
    at.set(cur, path.length);
    path.push(cur);
    cur = idx.inputs.get(cur)!.find((e) => remaining.has(e.from))!.from;
  }
  const cycle = path.slice(at.get(cur)).reverse();
  const closing = idx.inputs.get(cycle[0])!.find((e) => e.from === cycle[cycle.length - 1])!;
  problems.push(err(`edges[${closing.edge}]`, `cycle: ${[...cycle, cycle[0]].join(' -> ')}`, cycle[0]));
  return { acyclic: false, order };
}

function checkParallelism(doc: JobDocument, problems: JobProblem[]) {
  const max = doc.settings?.maxParallelism ?? DEFAULT_SETTINGS.maxParallelism;
  const jobPar = doc.settings?.parallelism ?? DEFAULT_SETTINGS.parallelism;
  if (jobPar > max) {
    problems.push(err('settings.parallelism', `parallelism ${jobPar} is greater than maxParallelism ${max}`));
  }
  doc.nodes.forEach((n, i) => {
    if (n.parallelism !== undefined && n.parallelism > max) {
      problems.push(
        err(`nodes[${i}].parallelism`, `parallelism ${n.parallelism} is greater than maxParallelism ${max}`, n.id),
      );
    }
  });
}

/** Two file sinks (nodes writing a localFile) on one folder would commit into each other's transactions. */
function checkSinkPaths(doc: JobDocument, problems: JobProblem[]) {
  const seen = new Map<string, number>();
  doc.nodes.forEach((n, i) => {
    const file = localFileOf(n);
    if (file?.access !== 'write') return;
    const key = file.path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      problems.push(
        err(`nodes[${i}].config.${file.key}`, `sink path '${file.path}' is also written by nodes[${first}]`, n.id),
      );
  });
}

export function checkGraph(doc: JobDocument, problems: JobProblem[]): GraphIndex {
  const byId = checkIds(doc, problems);
  const { inputs, outputs } = checkEdges(doc, byId, problems);
  const partial = { byId, inputs, outputs };
  checkDegrees(partial, problems);
  const { acyclic, order } = checkCycles(partial, problems);
  checkParallelism(doc, problems);
  checkSinkPaths(doc, problems);
  return { ...partial, acyclic, order };
}
