/**
 * Run overrides: what one run changes of a job without editing it (`weir run --parallelism`, the
 * app's backend and checkpointing choices). They are applied to the job document BEFORE
 * validation, by the CLI and the host alike, so every rule `weir validate` checks (parallelism at
 * most maxParallelism, a backend's needs, a valid interval) holds for what actually runs.
 *
 * Parallelism follows Flink's `-p`: it is the job's default, so a node with its own parallelism
 * keeps it and every other node runs with the override.
 */
import type { CheckpointMode, DurationInput, StateBackendKind } from './types.ts';

export interface RunOverrides {
  parallelism?: number;
  stateBackend?: StateBackendKind;
  /** `interval: null` switches checkpointing off for this run. */
  checkpointing?: { interval?: DurationInput | null; mode?: CheckpointMode; incremental?: boolean };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `document` with the overrides in its settings; anything not a job object is returned as is. */
export function applyRunOverrides(document: unknown, o: RunOverrides): unknown {
  if (!isRecord(document)) return document; // validation reports what is wrong with it
  const settings: Record<string, unknown> = isRecord(document.settings) ? { ...document.settings } : {};
  if (o.parallelism !== undefined) settings.parallelism = o.parallelism;
  if (o.stateBackend !== undefined) settings.stateBackend = o.stateBackend;
  const cp = o.checkpointing;
  if (cp && (cp.interval !== undefined || cp.mode !== undefined || cp.incremental !== undefined)) {
    const checkpointing: Record<string, unknown> = isRecord(settings.checkpointing)
      ? { ...settings.checkpointing }
      : {};
    // The document has no null interval: an absent one means checkpointing off.
    if (cp.interval === null) delete checkpointing.interval;
    else if (cp.interval !== undefined) checkpointing.interval = cp.interval;
    if (cp.mode !== undefined) checkpointing.mode = cp.mode;
    if (cp.incremental !== undefined) checkpointing.incremental = cp.incremental;
    settings.checkpointing = checkpointing;
  }
  return { ...document, settings };
}
