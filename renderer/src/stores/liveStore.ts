/**
 * What the live panel knows about the current run besides per-tick metrics (those stay in
 * metricsStore.ts): checkpoint statistics by id, restores, preview samples per node, the
 * configuration in effect, and which panel tab / checkpoint is open.
 *
 * Rules:
 * - Fed only by host events (applyLiveEvent) and by the run actions (beginRun); never by node data.
 * - Events of another run than the current one are ignored, as in runStore.
 * - Preview samples are capped per node (PREVIEW_CAP), newest last.
 */
import { createStore, useStore } from 'zustand';
import type { HostEvent } from '../../../engine/host/common/api.ts';
import type { StateBackendKind } from '../../../engine/graph/types.ts';
import type { CheckpointStats } from '../../../engine/contracts/checkpoint.ts';
import type { RunConfig } from './runConfig.ts';
import { metricsStore } from './metricsStore.ts';
import { resetLog } from './logStore.ts';

export const PREVIEW_CAP = 50;
const TERMINAL: ReadonlySet<string> = new Set(['finished', 'stopped', 'failed', 'canceled']);

export interface RestoreEntry {
  /** Checkpoint id restored (null: the run started from a path whose id is not known yet). */
  id: number | null;
  source: string;
  time: number;
  cause: string | null;
}

export type LiveTab =
  'overview' | 'metrics' | 'checkpoints' | 'watermarks' | 'state' | 'data' | 'preview' | 'logs' | 'flink';

export interface LiveState {
  runId: string | null;
  config: RunConfig | null;
  /** Checkpoint stats in id order; one entry per id (later events replace earlier ones). */
  checkpoints: CheckpointStats[];
  restores: RestoreEntry[];
  /** Per node id: newest sample records across its subtasks. */
  previews: ReadonlyMap<string, unknown[]>;
  open: boolean;
  tab: LiveTab;
  detailId: number | null;
  /** Drawer height in px (dragged by its top edge). */
  height: number;
  /** Backend for the next runs, chosen in the panel; null = the job's own `settings.stateBackend`. */
  backend: StateBackendKind | null;
}

const initial = (): LiveState => ({
  runId: null,
  config: null,
  checkpoints: [],
  restores: [],
  previews: new Map(),
  open: false,
  tab: 'overview',
  detailId: null,
  backend: null,
  height: 320,
});

export const liveStore = createStore<LiveState>()(() => initial());

export function useLive<T>(selector: (s: LiveState) => T): T {
  return useStore(liveStore, selector);
}

/** A new run starts: forget the previous run's numbers, keep the panel's layout. */
export function beginRun(config: RunConfig): void {
  resetLog(config.restoreFrom);
  liveStore.setState((s) => ({
    ...initial(),
    open: true,
    tab: s.tab,
    backend: s.backend,
    height: s.height,
    config,
    restores: config.restoreFrom
      ? [
          {
            id: null,
            source: config.restoreFrom === 'latest' ? 'latest retained checkpoint' : config.restoreFrom,
            time: Date.now(),
            cause: null,
          },
        ]
      : [],
  }));
}

/** Another document was opened: nothing of the shown run stays; the drawer keeps its height. */
export function resetLive(): void {
  liveStore.setState((s) => ({ ...initial(), height: s.height }));
}

/** The host named the run: numbers an older run's late events left here are dropped. */
export function setRunId(runId: string): void {
  const s = liveStore.getState();
  if (s.runId === runId) return;
  if (s.runId === null) {
    liveStore.setState({ runId });
    return;
  }
  liveStore.setState({
    runId,
    checkpoints: [],
    previews: new Map(),
    restores: s.restores.filter((r) => r.cause === null),
  });
}

/** Insert or replace by id, keeping id order (events arrive in order; replace is the common case). */
export function upsertCheckpoint(list: CheckpointStats[], stats: CheckpointStats): CheckpointStats[] {
  const out = list.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i].id === stats.id) {
      out[i] = stats;
      return out;
    }
    if (out[i].id < stats.id) {
      out.splice(i + 1, 0, stats);
      return out;
    }
  }
  out.unshift(stats);
  return out;
}

/** `pv#1` -> `pv`: preview targets name a sink subtask. */
export function previewNode(target: string): string {
  const i = target.lastIndexOf('#');
  return i > 0 ? target.slice(0, i) : target;
}

export function applyLiveEvent(ev: HostEvent): void {
  if (ev.type === 'app.command' || ev.type === 'metrics' || ev.type === 'log' || ev.type === 'flink.run') return;
  const s = liveStore.getState();
  // The first event names the run when the panel started it before `run()` returned.
  if (s.runId && ev.runId !== s.runId) return;
  if (!s.runId) liveStore.setState({ runId: ev.runId });
  if (ev.type === 'checkpoint') {
    const restored =
      s.restores.length && s.restores[0].id === null && ev.stats.id > 1
        ? [{ ...s.restores[0], id: ev.stats.id - 1 }, ...s.restores.slice(1)]
        : s.restores;
    liveStore.setState({ checkpoints: upsertCheckpoint(s.checkpoints, ev.stats), restores: restored });
  } else if (ev.type === 'job.status' && TERMINAL.has(ev.status)) {
    settleMetrics();
    // A checkpoint still pending when the run ends will never complete (Flink fails them on suspend).
    if (s.checkpoints.some((c) => c.status === 'in_progress')) {
      liveStore.setState({
        checkpoints: s.checkpoints.map((c) =>
          c.status === 'in_progress'
            ? {
                ...c,
                status: 'failed' as const,
                failureReason: c.failureReason ?? `abandoned: the job ${ev.status} before it completed`,
              }
            : c,
        ),
      });
    }
  } else if (ev.type === 'job.restart') {
    liveStore.setState({
      restores: [
        ...s.restores,
        {
          id: ev.restoredCheckpoint,
          source: ev.restoredCheckpoint === null ? 'no checkpoint (from the start)' : 'automatic restart',
          time: Date.now(),
          cause: ev.cause,
        },
      ],
    });
  } else if (ev.type === 'preview') {
    const node = previewNode(ev.target);
    const previews = new Map(s.previews);
    const prev = previews.get(node) ?? [];
    const merged = prev.concat(ev.records);
    previews.set(node, merged.length > PREVIEW_CAP ? merged.slice(merged.length - PREVIEW_CAP) : merged);
    liveStore.setState({ previews });
  }
}

/**
 * After the run ended nothing flows and nothing waits for a commit (committed on a final
 * checkpoint or savepoint, aborted on failure): zero rates, back-pressure and pending records,
 * keep watermarks and counts. Scheduled like the metrics flush, so it lands after a pending tick.
 */
function settleMetrics(): void {
  const settle = () =>
    metricsStore.setState((m) => ({
      byNode: new Map(
        [...m.byNode].map(([id, subs]) => [
          id,
          subs.map((x) => ({
            ...x,
            rateIn: 0,
            rateOut: 0,
            backPressure: 0,
            ...(x.pendingRecords !== undefined ? { pendingRecords: 0, pendingFiles: 0 } : {}),
          })),
        ]),
      ),
    }));
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(settle);
  else setTimeout(settle, 20);
}

export function openCheckpoint(id: number | null): void {
  liveStore.setState(id === null ? { detailId: null } : { detailId: id, tab: 'checkpoints', open: true });
}

export function setTab(tab: LiveTab): void {
  liveStore.setState({ tab, open: true });
}

export function setOpen(open: boolean): void {
  liveStore.setState({ open });
}
