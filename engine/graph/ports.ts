/**
 * Connection rules shared by the designer (what may be dragged where) and the validator (what a
 * saved job may contain). Plain TypeScript, browser-safe: the renderer imports this file directly.
 * Each type's ports are declared by its definition (engine/nodes/<type>/definition.ts).
 *
 * Rules: sources have outputs only, sinks inputs only; filter, map and window take exactly one
 * input; union takes two or more; a window has a second output `late` for records that arrive
 * after the watermark passed their window's end plus the allowed lateness; no cycles.
 * Two-input nodes (`join`, `join.interval`, `join.window`) have named input ports `left` and `right`, each taking exactly
 * one edge that names it in `toPort`; edges into every other node have no `toPort`.
 * aggregate and topn take one input. A file source has a second output `bad` for dead letters
 * (`onBadRecord: 'dead-letter'`: file, line, reason, text), which goes to sinks only. A Nexmark
 * source has no `out`, only `person`, `auction` and `bid`.
 */

import type { JobEdge, JobNode, NodeType } from './types.ts';
import type { InputPort, OutputPort, PortSpec } from '../nodes/ports.ts';
import { NODE_DEFINITIONS } from './node-types.ts';

export type { InputPort, OutputPort, PortSpec };

/** Each type's ports, as its definition declares them. */
export const PORTS = Object.fromEntries(NODE_DEFINITIONS.map((d) => [d.type, d.ports])) as Readonly<
  Record<NodeType, PortSpec>
>;
// A type this version does not know (read from a file) is neither a source nor a sink.
const portsOf = (type: NodeType): PortSpec | undefined => PORTS[type];

/** Sources take no input. */
export function isSource(type: NodeType): boolean {
  return portsOf(type)?.maxInputs === 0;
}

/** Sinks have no output. */
export function isSink(type: NodeType): boolean {
  return portsOf(type)?.outputs.length === 0;
}

export function outputPorts(type: NodeType): readonly OutputPort[] {
  return PORTS[type].outputs;
}

export function inputPorts(type: NodeType): readonly InputPort[] {
  return PORTS[type].inputs ?? [];
}

export function acceptsInputs(type: NodeType): boolean {
  return PORTS[type].maxInputs > 0;
}

/** The minimal view of a job the rules need (a JobDocument, a NormalizedJob or designer state). */
export interface GraphLike {
  nodes: ReadonlyArray<Pick<JobNode, 'id' | 'type'>>;
  edges: ReadonlyArray<Pick<JobEdge, 'from' | 'to' | 'fromPort' | 'toPort'>>;
}

export type ConnectResult = { ok: true } | { ok: false; reason: string };

/** Whether `to` is reachable from `from` following edges (used to reject cycles). */
export function reaches(graph: GraphLike, from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const n of next.get(id) ?? []) stack.push(n);
  }
  return false;
}

/** May a new edge `from`(`fromPort`) -> `to` be added to `graph`? */
export function canConnect(
  graph: GraphLike,
  from: string,
  fromPort: OutputPort | undefined,
  to: string,
  toPort?: InputPort,
): ConnectResult {
  const port = fromPort ?? 'out';
  const src = graph.nodes.find((n) => n.id === from);
  const dst = graph.nodes.find((n) => n.id === to);
  if (!src) return { ok: false, reason: `unknown node '${from}'` };
  if (!dst) return { ok: false, reason: `unknown node '${to}'` };
  if (from === to) return { ok: false, reason: 'a node cannot connect to itself' };
  const outs = outputPorts(src.type);
  if (outs.length === 0) return { ok: false, reason: `a ${src.type} node has no outputs` };
  if (!outs.includes(port)) {
    return { ok: false, reason: `a ${src.type} node has no output port '${port}' (ports: ${outs.join(', ')})` };
  }
  const spec = PORTS[dst.type];
  if (spec.maxInputs === 0) return { ok: false, reason: `a ${dst.type} node takes no inputs` };
  if (
    graph.edges.some((e) => e.from === from && e.to === to && (e.fromPort ?? 'out') === port && e.toPort === toPort)
  ) {
    return { ok: false, reason: `'${from}' is already connected to '${to}'` };
  }
  const named = spec.inputs ?? [];
  if (named.length > 0) {
    if (toPort === undefined || !named.includes(toPort)) {
      return { ok: false, reason: `a ${dst.type} node has input ports ${named.join(' and ')}: choose one` };
    }
    if (graph.edges.some((e) => e.to === to && e.toPort === toPort)) {
      return { ok: false, reason: `the ${toPort} input of '${to}' is already connected` };
    }
  } else if (toPort !== undefined) {
    return { ok: false, reason: `a ${dst.type} node has no input port '${toPort}'` };
  }
  // A cycle first: "use a union" would be wrong advice for a wire that closes a loop.
  if (reaches(graph, to, from)) return { ok: false, reason: `connecting '${from}' to '${to}' would create a cycle` };
  const inputs = graph.edges.filter((e) => e.to === to).length;
  if (inputs >= spec.maxInputs) {
    return { ok: false, reason: `a ${dst.type} node takes exactly one input; use a union to merge streams` };
  }
  return { ok: true };
}
