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
import { useChangelogEdges } from './useChangelogEdges.ts';
import { useSampled } from '../model/sampledColumns.ts';
import { missingInputProblems, withMissingInput } from '../model/missingInputs.ts';

interface Cached {
  src: JobNode;
  selected: boolean;
  problems: JobProblem[] | undefined;
  measured: unknown;
  flow: JobFlowNode;
}

export function useFlowNodes(): JobFlowNode[] {
  const nodes = useDoc((s) => s.job.nodes);
  const selected = useDoc((s) => s.selectedNodes);
  const byNode = useDoc((s) => s.problems.byNode);
  const docPath = useDoc((s) => s.path);
  const samples = useSampled((s) => s.byNode);
  const missing = useMemo(() => missingInputProblems(nodes, samples, docPath), [nodes, samples, docPath]);
  const missingRef = useRef(
    new Map<string, { p: JobProblem | undefined; base: JobProblem[] | undefined; out: JobProblem[] | undefined }>(),
  );
  const measured = useMeasured();
  const cache = useRef(new Map<string, Cached>());
  return useMemo(() => {
    const next = new Map<string, Cached>();
    const out: JobFlowNode[] = [];
    nodes.forEach((n, i) => {
      // A node without a string id, or a second node with the same id (a hand-edited file),
      // cannot be drawn as its own node; the validator reports both.
      if (!n || typeof n.id !== 'string' || next.has(n.id)) return;
      const sel = selected.has(n.id);
      // The same array while neither list changes, so the node's cache below still hits.
      const base = byNode.get(n.id);
      const miss = missing.get(n.id);
      const prev = missingRef.current.get(n.id);
      const problems = prev && prev.p === miss && prev.base === base ? prev.out : withMissingInput(base, miss);
      missingRef.current.set(n.id, { p: miss, base, out: problems });
      const m = measured.get(n.id);
      const c = cache.current.get(n.id);
      if (c && c.src === n && c.selected === sel && c.problems === problems && c.measured === m) {
        next.set(n.id, c);
        out.push(c.flow);
        return;
      }
      const pos = n.position && Number.isFinite(n.position.x) && Number.isFinite(n.position.y) ? n.position : null;
      const flow: JobFlowNode = {
        id: n.id,
        type: 'job',
        position: pos ?? { x: 40 + (i % 6) * 280, y: 40 + Math.floor(i / 6) * 140 },
        data: { node: n, problems },
        selected: sel,
        ...(m ? { measured: m } : {}),
      };
      next.set(n.id, { src: n, selected: sel, problems, measured: m, flow });
      out.push(flow);
    });
    cache.current = next;
    return out;
  }, [nodes, selected, byNode, measured, missing]);
}

export function useFlowEdges(): Edge[] {
  const edges = useDoc((s) => s.job.edges);
  const selected = useDoc((s) => s.selectedEdges);
  const changelog = useChangelogEdges();
  return useMemo(() => {
    const seen = new Set<string>();
    return edges
      .filter((e) => {
        if (!e || typeof e.from !== 'string' || typeof e.to !== 'string') return false;
        const k = edgeKey(e);
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      })
      .map((e) => {
        const id = edgeKey(e);
        const port = e.fromPort ?? 'out';
        return {
          id,
          type: 'live',
          source: e.from,
          target: e.to,
          sourceHandle: port,
          targetHandle: e.toPort ?? 'in',
          selected: selected.has(id),
          className: port !== 'out' ? `wedge wedge--${port}` : changelog.has(id) ? 'wedge wedge--changelog' : 'wedge',
        } satisfies Edge;
      });
  }, [edges, selected, changelog]);
}
