/**
 * Run on Flink's view state: the dialog, the settings it edits (kept by the host), and the latest
 * Flink run as its `flink.run` snapshots report it. Apart from the engine's own run (runStore,
 * liveStore): a job may run on Flink and in Weir at once.
 */
import { createStore, useStore } from 'zustand';
import type { FlinkRunEvent, FlinkRunSnapshot, FlinkSettings } from '../../../engine/host/common/api.ts';
import { DEFAULT_FLINK_SETTINGS } from '../../../engine/host/common/flink-schemas.ts';

export interface FlinkState {
  dialogOpen: boolean;
  settings: FlinkSettings;
  /** A flinkRun call is under way: its run's first events may arrive before its answer. */
  starting: boolean;
  run: FlinkRunSnapshot | null;
  /** Why the last Run on Flink did not start (no Java, unbuilt runner, gateway refused), in one line. */
  refusal: string | null;
}

export const flinkStore = createStore<FlinkState>()(() => ({
  dialogOpen: false,
  settings: DEFAULT_FLINK_SETTINGS,
  starting: false,
  run: null,
  refusal: null,
}));

export function useFlink<T>(selector: (s: FlinkState) => T): T {
  return useStore(flinkStore, selector);
}

/** Snapshots of the current run replace what is shown; another run's stragglers are ignored. */
export function applyFlinkEvent(ev: FlinkRunEvent): void {
  const { run, starting } = flinkStore.getState();
  if (run?.flinkRunId !== ev.flinkRunId && !starting) return;
  const { type: _type, ...snap } = ev;
  flinkStore.setState({ run: snap });
}
