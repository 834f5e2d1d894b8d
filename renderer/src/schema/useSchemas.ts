/**
 * Schemas of the document on screen for components. Each hook's selector returns a string, so a
 * component re-renders only when what it shows changes: moving a node changes the document but
 * no schema (and model/schemas.ts does not re-type for a move). Reading the sampled store makes
 * them re-run when a source's sampled columns arrive.
 */
import { useMemo } from 'react';
import type { JobEdge } from '../../../engine/graph/types.ts';
import { useDoc } from '../state.ts';
import { edgeOfKey } from '../model/docStore.ts';
import { edgeSchema, inputColumnTypes, inputSchemas, type EdgeSchema } from '../model/schemas.ts';
import { useSampled } from '../model/sampledColumns.ts';

function useJson<T>(key: string): T {
  return useMemo(() => JSON.parse(key) as T, [key]);
}

/** The schema of the edge with this key, or null when it is gone. */
export function useEdgeSchema(key: string): { edge: JobEdge; schema: EdgeSchema } | null {
  useSampled((s) => s.byNode);
  const json = useDoc((s) => {
    const edge = edgeOfKey(s.job, key);
    return JSON.stringify(edge ? { edge, schema: edgeSchema(s.job, edge, s.path) } : null);
  });
  return useJson(json);
}

/** The schema of every edge into a node, in edge order. */
export function useInputSchemas(nodeId: string): Array<{ edge: JobEdge; schema: EdgeSchema }> {
  useSampled((s) => s.byNode);
  return useJson(useDoc((s) => JSON.stringify(inputSchemas(s.job, nodeId, s.path))));
}

/** Name -> Flink type of the columns a node's fields can name (completions). */
export function useInputTypes(nodeId: string): ReadonlyMap<string, string | null> {
  useSampled((s) => s.byNode);
  const json = useDoc((s) => JSON.stringify([...inputColumnTypes(s.job, nodeId, s.path)]));
  return useMemo(() => new Map(JSON.parse(json) as Array<[string, string | null]>), [json]);
}

/** Display names of nodes by id (a node without a name shows its id). */
export function useNodeNames(ids: ReadonlyArray<string | undefined>): string[] {
  const json = useDoc((s) => JSON.stringify(ids.map((id) => s.job.nodes.find((n) => n.id === id)?.name || id || '')));
  return useJson(json);
}
