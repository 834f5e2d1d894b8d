/**
 * React Flow nodes and edges derived from the document. Each flow node object is reused while its
 * job node, selection, problems and measured size are unchanged, so moving one node re-renders one
 * node, not 200 (React Flow compares node objects by identity).
 */
import { useMemo, useRef } from 'react';
import type { Edge } from '@xyflow/react';
import type { JobNode, JobProblem } from '../../../engine/graph/types.ts';
import { useDoc } from '../state.ts';
import { edgeKey } from '../model/ops.ts';
import type { JobFlowNode } from './JobNodeView.tsx';
import { useMeasured } from './measuredStore.ts';

interface Cached { src: JobNode; selected: boolean; problems: JobProblem[] | undefined; measured: unknown; flow: JobFlowNode }

export function useFlowNodes(): JobFlowNode[] {
  const nodes = useDoc((s) => s.job.nodes);
  const selected = useDoc((s) => s.selectedNodes);
  const byNode = useDoc((s) => s.problems.byNode);
  const measured = useMeasured();
  const cache = useRef(new Map<string, Cached>());
  return useMemo(() => {
    const next = new Map<string, Cached>();
    const out = nodes.map((n, i) => {
      const sel = selected.has(n.id);
      const problems = byNode.get(n.id);
      const m = measured.get(n.id);
      const c = cache.current.get(n.id);
      if (c && c.src === n && c.selected === sel && c.problems === problems && c.measured === m) {
        next.set(n.id, c);
        return c.flow;
      }
      const flow: JobFlowNode = {
        id: n.id,
        type: 'job',
        position: n.position ?? { x: 40 + (i % 6) * 280, y: 40 + Math.floor(i / 6) * 140 },
        data: { node: n, problems },
        selected: sel,
        ...(m ? { measured: m } : {}),
      };
      next.set(n.id, { src: n, selected: sel, problems, measured: m, flow });
      return flow;
    });
    cache.current = next;
    return out;
  }, [nodes, selected, byNode, measured]);
}

export function useFlowEdges(): Edge[] {
  const edges = useDoc((s) => s.job.edges);
  const selected = useDoc((s) => s.selectedEdges);
  return useMemo(() => edges.map((e) => {
    const id = edgeKey(e);
    const port = e.fromPort ?? 'out';
    return {
      id,
      source: e.from,
      target: e.to,
      sourceHandle: port,
      targetHandle: 'in',
      selected: selected.has(id),
      className: port === 'late' ? 'wedge wedge--late' : 'wedge',
    } satisfies Edge;
  }), [edges, selected]);
}
