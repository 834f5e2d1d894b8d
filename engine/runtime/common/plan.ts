/**
 * The planner: a NormalizedJob (logical graph) becomes a physical plan of chains and network edges.
 *
 * Rules (Flink's StreamingJobGraphGenerator, simplified):
 * - A node with parallelism p has p subtasks; a chain of nodes runs as one task per subtask.
 * - An edge is chained (no queue) when it is the only output of its source node, the only input of
 *   its target node, both have the same parallelism and the target is not behind a keyBy (except at
 *   parallelism 1, where a keyBy has only one place to send a record).
 * - Edges into a window with `keyBy` (an aggregate, a topn, each input of a join: by its own key,
 *   an upsert sink.postgres: by its key) hash-partition by key group; edges into a window without keyBy go to subtask 0 (a global window
 *   needs every record in one place); equal-parallelism edges are point-to-point (`forward`), a
 *   changelog between different parallelisms goes to subtask 0 (changes of a key stay in order),
 *   all others rebalance batches round-robin.
 * The plan is plain JSON: the host sends it to the task process.
 */
import type { NormalizedJob, JobNode } from '../../graph/types.ts';
import type { OutputPort } from '../../graph/ports.ts';
import type { KeyGroupRange } from '../../contracts/keyed-state.ts';
import { isSource } from '../../graph/ports.ts';
import { definitionOf, isNodeType, nodeDefinition } from '../../graph/node-types.ts';
import { keyGroupRangeFor } from '../../state/keygroups.ts';
import { window as windowNode } from '../../nodes/window/definition.ts';

export type Partitioning = 'forward' | 'hash' | 'rebalance' | 'global';

export interface PlannedNode {
  id: string;
  type: JobNode['type'];
  parallelism: number;
  /** Index of the chain the node belongs to and its position inside it. */
  chain: number;
  position: number;
}

export interface ChainPlan {
  index: number;
  /** Node ids from head to tail. */
  nodes: string[];
  parallelism: number;
  isSource: boolean;
}

/** A network edge between the tail of one chain and the head of another. */
export interface NetworkEdge {
  fromChain: number;
  fromNode: string;
  port: OutputPort;
  toChain: number;
  toNode: string;
  /** Logical input index at the target node (order of the job's edges into it). */
  inputIndex: number;
  partitioning: Partitioning;
  /** The keyBy expression when `partitioning` is `hash`. */
  keyBy?: string;
}

/** An edge inside a chain (no queue): the upstream node's port feeds the next node. */
export interface ChainedEdge {
  fromNode: string;
  port: OutputPort;
  toNode: string;
}

export interface PhysicalPlan {
  jobName: string;
  maxParallelism: number;
  nodes: PlannedNode[];
  chains: ChainPlan[];
  edges: NetworkEdge[];
  chainedEdges: ChainedEdge[];
}

export function isSourceType(type: string): boolean {
  return isNodeType(type) && isSource(type);
}

/** The key an edge into `node` is hash-partitioned by (a join keys each input by its own side). */
function keyByOf(node: JobNode | undefined, toPort?: 'left' | 'right'): string | undefined {
  if (!node) return undefined;
  const k = definitionOf(node).partitionKey?.(node.config, toPort)?.trim();
  return k ? k : undefined;
}

/** Keyed operators: their input is routed by key group, so they chain only at parallelism 1. */
function isKeyed(type: JobNode['type']): boolean {
  return nodeDefinition(type).keyedState ?? false;
}

/**
 * Nodes whose output is a changelog (graph/changelog.ts). Changes of one key must reach one
 * consumer subtask in order, so a changelog edge that is not point-to-point goes to subtask 0.
 * Sources are not counted (a CDC source's edges are routed as any source's).
 */
function changelogNodes(job: NormalizedJob, order: string[], ins: Map<string, NormalizedJob['edges']>): Set<string> {
  const byId = new Map(job.nodes.map((n) => [n.id, n]));
  const set = new Set<string>();
  for (const id of order) {
    const n = byId.get(id)!;
    const rule = definitionOf(n).changelog;
    if (!isSource(n.type) && rule?.produces?.(n.config)) set.add(id);
    else if (rule?.passes && ins.get(id)!.some((e) => e.fromPort === 'out' && set.has(e.from))) set.add(id);
  }
  return set;
}

/** Run overrides (`weir run --parallelism N`) are already in `job` (graph/run-overrides.ts). */
export function planJob(job: NormalizedJob): PhysicalPlan {
  const byId = new Map(job.nodes.map((n) => [n.id, n]));
  const par = (id: string): number => byId.get(id)!.parallelism;
  const outs = new Map<string, typeof job.edges>();
  const ins = new Map<string, typeof job.edges>();
  for (const n of job.nodes) {
    outs.set(n.id, []);
    ins.set(n.id, []);
  }
  for (const e of job.edges) {
    outs.get(e.from)!.push(e);
    ins.get(e.to)!.push(e);
  }

  const chainable = (e: (typeof job.edges)[number]): boolean => {
    const target = byId.get(e.to)!;
    // Into a window only at parallelism 1: then its keyBy/global routing has one possible target.
    return (
      outs.get(e.from)!.length === 1 &&
      ins.get(e.to)!.length === 1 &&
      par(e.from) === par(e.to) &&
      (!(isKeyed(target.type) || keyByOf(target, e.toPort)) || par(e.to) === 1) &&
      e.fromPort === 'out'
    );
  };

  // Walk nodes in job order; a node starts a new chain unless its single input edge is chainable.
  const chainOf = new Map<string, number>();
  const positionOf = new Map<string, number>(); // a node's index in its chain
  const chains: ChainPlan[] = [];
  const order = topoOrder(job, outs);
  for (const id of order) {
    const inEdges = ins.get(id)!;
    if (inEdges.length === 1 && chainable(inEdges[0]) && chainOf.has(inEdges[0].from)) {
      const c = chainOf.get(inEdges[0].from)!;
      positionOf.set(id, chains[c].nodes.length);
      chains[c].nodes.push(id);
      chainOf.set(id, c);
    } else {
      const index = chains.length;
      chains.push({ index, nodes: [id], parallelism: par(id), isSource: isSourceType(byId.get(id)!.type) });
      chainOf.set(id, index);
      positionOf.set(id, 0);
    }
  }

  const changelog = changelogNodes(job, order, ins);
  const edges: NetworkEdge[] = [];
  const chainedEdges: ChainedEdge[] = [];
  for (const e of job.edges) {
    const fromChain = chainOf.get(e.from)!;
    const toChain = chainOf.get(e.to)!;
    if (fromChain === toChain) {
      chainedEdges.push({ fromNode: e.from, port: e.fromPort, toNode: e.to });
      continue;
    }
    const target = byId.get(e.to)!;
    const keyBy = keyByOf(target, e.toPort);
    let partitioning: Partitioning;
    if (keyBy) partitioning = 'hash';
    else if (target.type === windowNode.type) partitioning = 'global';
    else if (par(e.from) === par(e.to)) partitioning = 'forward';
    else if (changelog.has(e.from) && e.fromPort === 'out') partitioning = 'global';
    else partitioning = 'rebalance';
    // Two-input nodes: input 0 is `left`, input 1 is `right`, whatever the edges' order.
    const inputIndex = e.toPort ? (e.toPort === 'right' ? 1 : 0) : ins.get(e.to)!.indexOf(e); // few inputs
    edges.push({
      fromChain,
      fromNode: e.from,
      port: e.fromPort,
      toChain,
      toNode: e.to,
      inputIndex,
      partitioning,
      keyBy,
    });
  }

  const nodes: PlannedNode[] = order.map((id) => ({
    id,
    type: byId.get(id)!.type,
    parallelism: par(id),
    chain: chainOf.get(id)!,
    position: positionOf.get(id)!,
  }));
  return { jobName: job.name, maxParallelism: job.settings.maxParallelism, nodes, chains, edges, chainedEdges };
}

/** Kahn's algorithm, stable in job order. Validation has already rejected cycles. */
export function topoOrder(job: NormalizedJob, outs: Map<string, NormalizedJob['edges']>): string[] {
  const indeg = new Map(job.nodes.map((n) => [n.id, 0]));
  for (const e of job.edges) indeg.set(e.to, (indeg.get(e.to) ?? 0) + 1);
  const out: string[] = [];
  const ready = job.nodes.filter((n) => indeg.get(n.id) === 0).map((n) => n.id);
  // A queue read by index (shift() is linear) over each node's own out edges: linear in the graph.
  for (let next = 0; next < ready.length; next++) {
    const id = ready[next];
    out.push(id);
    for (const e of outs.get(id)!) {
      const d = indeg.get(e.to)! - 1;
      indeg.set(e.to, d);
      if (d === 0) ready.push(e.to);
    }
  }
  if (out.length !== job.nodes.length) throw new Error('the job graph has a cycle');
  return out;
}

export function keyGroupRangeOf(plan: PhysicalPlan, nodeId: string, subtask: number): KeyGroupRange {
  const n = plan.nodes.find((x) => x.id === nodeId)!;
  return keyGroupRangeFor(plan.maxParallelism, n.parallelism, subtask);
}

/** Number of operator subtasks: what a checkpoint needs acknowledged. */
export function operatorSubtaskCount(plan: PhysicalPlan): number {
  return plan.nodes.reduce((s, n) => s + n.parallelism, 0);
}
