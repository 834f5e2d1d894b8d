/**
 * Every problem of the open document: the validator's, plus a missing input file of a source (which
 * the validator cannot know: model/missingInputs.ts), so the status bar counts and lists the error
 * the node shows.
 */
import { useMemo } from 'react';
import type { JobProblem } from '../../../engine/graph/types.ts';
import { useDoc } from '../state.ts';
import { useSampled } from '../model/sampledColumns.ts';
import { missingInputProblems } from '../model/missingInputs.ts';

export function useAllProblems(): JobProblem[] {
  const all = useDoc((s) => s.problems.all);
  const nodes = useDoc((s) => s.job.nodes);
  const docPath = useDoc((s) => s.path);
  const samples = useSampled((s) => s.byNode);
  return useMemo(() => {
    const missing = missingInputProblems(nodes, samples, docPath);
    return missing.size ? [...missing.values(), ...all] : all;
  }, [all, nodes, samples, docPath]);
}
