/**
 * Connection rules shared by the designer (what may be dragged where) and the validator (what a
 * saved job may contain). Plain TypeScript, browser-safe: the renderer imports this file directly.
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
import { NEXMARK_PORTS, type NexmarkPort } from './nexmark.ts';

export type OutputPort = 'out' | 'late' | 'bad' | NexmarkPort;
export type InputPort = 'left' | 'right';

export interface PortSpec {
  /** Output ports; empty for sinks. */
  outputs: readonly OutputPort[];
  /** Allowed number of incoming edges. */
  minInputs: number;
  maxInputs: number;
  /** Named input ports (two-input nodes); absent = one anonymous input. */
  inputs?: readonly InputPort[];
}

export const PORTS: Readonly<Record<NodeType, PortSpec>> = {
  'source.file': { outputs: ['out', 'bad'], minInputs: 0, maxInputs: 0 },
  'source.generator': { outputs: ['out'], minInputs: 0, maxInputs: 0 },
  'source.nexmark': { outputs: NEXMARK_PORTS, minInputs: 0, maxInputs: 0 },
  'source.postgres': { outputs: ['out'], minInputs: 0, maxInputs: 0 },
  filter: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  map: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  union: { outputs: ['out'], minInputs: 2, maxInputs: Infinity },
  window: { outputs: ['out', 'late'], minInputs: 1, maxInputs: 1 },
  'join.interval': { outputs: ['out'], minInputs: 2, maxInputs: 2, inputs: ['left', 'right'] },
  'join.window': { outputs: ['out'], minInputs: 2, maxInputs: 2, inputs: ['left', 'right'] },
  join: { outputs: ['out'], minInputs: 2, maxInputs: 2, inputs: ['left', 'right'] },
  aggregate: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  topn: { outputs: ['out'], minInputs: 1, maxInputs: 1 },
  'sink.file': { outputs: [], minInputs: 1, maxInputs: Infinity },
  'sink.postgres': { outputs: [], minInputs: 1, maxInputs: Infinity },
  'sink.preview': { outputs: [], minInputs: 1, maxInputs: Infinity },
};

export function isSource(type: NodeType): boolean {
  return (
    type === 'source.file' || type === 'source.generator' || type === 'source.nexmark' || type === 'source.postgres'
  );
}

export function isSink(type: NodeType): boolean {
  return type === 'sink.file' || type === 'sink.postgres' || type === 'sink.preview';
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
  const inputs = graph.edges.filter((e) => e.to === to).length;
  if (inputs >= spec.maxInputs) {
    return { ok: false, reason: `a ${dst.type} node takes exactly one input; use a union to merge streams` };
  }
  if (reaches(graph, to, from)) return { ok: false, reason: `connecting '${from}' to '${to}' would create a cycle` };
  return { ok: true };
}
