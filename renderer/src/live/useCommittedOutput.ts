/**
 * A sink's committed output through the host (`readSinkOutput`): one page, newest first, read again
 * whenever a checkpoint completes or the run changes status (a commit happens at both), and when
 * the page or the sink changes. Errors are answers to show, never thrown.
 */
import { useEffect, useState } from 'react';
import type { MethodResult } from '../../../engine/host/common/api.ts';
import { host } from '../host.ts';
import { docStore, useDoc } from '../state.ts';
import { useLive } from '../stores/liveStore.ts';
import { useRun } from '../stores/runStore.ts';

export type SinkOutput = MethodResult<'readSinkOutput'>;

export interface CommittedOutputState {
  output: SinkOutput | null;
  error: string | null;
  loading: boolean;
}

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
}

export function useCommittedOutput(nodeId: string | null, offset: number, limit: number): CommittedOutputState {
  const completed = useLive((s) => s.checkpoints.filter((c) => c.status === 'completed').length);
  const status = useRun((s) => s.status);
  const docVersion = useDoc((s) => s.docVersion);
  const sinkConfig = useDoc((s) => (nodeId ? s.job.nodes.find((n) => n.id === nodeId)?.config : undefined));
  const [state, setState] = useState<CommittedOutputState>({ output: null, error: null, loading: false });
  useEffect(() => {
    if (!nodeId) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const { job, path } = docStore.getState();
    host()
      .readSinkOutput({ job, nodeId, offset, limit, ...(path ? { path } : {}) })
      .then(
        (output) => live && setState({ output, error: null, loading: false }),
        (e: unknown) => live && setState({ output: null, error: message(e), loading: false }),
      );
    return () => {
      live = false;
    };
  }, [nodeId, offset, limit, completed, status, docVersion, sinkConfig]);
  return state;
}
