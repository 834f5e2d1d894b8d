/**
 * Keeps the host sampling an edge while the data tab shows it: `sampleEdge(on)` when shown during
 * an active run, `sampleEdge(off)` when the selection, the tab or the run changes. The records
 * arrive as `preview` events (liveStore.previews under `edge:<from>.<port>`).
 */
import { useEffect, useState } from 'react';
import { host } from '../host.ts';
import { ACTIVE, useRun } from '../stores/runStore.ts';
import type { EdgeSampleRequest } from './previewTarget.ts';

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
}

/** The host's refusal, if any (shown in the tab); null while sampling or idle. */
export function useEdgeSample(edge: EdgeSampleRequest | null): string | null {
  const runId = useRun((s) => s.runId);
  const active = useRun((s) => ACTIVE.has(s.status) && s.status !== 'starting');
  const [error, setError] = useState<string | null>(null);
  const from = edge?.from ?? null;
  const fromPort = edge?.fromPort ?? 'out';
  const to = edge?.to;
  useEffect(() => {
    setError(null);
    if (!from || !runId || !active) return;
    let live = true;
    const req = { runId, from, fromPort, ...(to ? { to } : {}) };
    host()
      .sampleEdge({ ...req, on: true })
      .catch((e) => {
        if (live) setError(message(e));
      });
    return () => {
      live = false;
      host()
        .sampleEdge({ ...req, on: false })
        .catch(() => undefined); // the run may be gone: nothing to stop
    };
  }, [runId, active, from, fromPort, to]);
  return error;
}
