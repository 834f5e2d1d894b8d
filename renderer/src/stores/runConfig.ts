/**
 * The configuration a run is started with, as the live panel shows it: the job's settings with
 * defaults applied and this run's overrides (backend, restore source) on top. Plain TS.
 */
import type { JobDocument, JobSettings, StateBackendKind } from '../../../engine/graph/types.ts';
import { DEFAULT_SETTINGS } from '../../../engine/graph/types.ts';
import { parseDuration, parseSize } from '../../../engine/graph/units.ts';

export interface RunConfig {
  settings: JobSettings;
  /** 'job' when the job's own backend is used, else the override picked for this run. */
  backendSource: 'job' | 'override';
  restoreFrom: string | null;
}

function orDefault<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

export function effectiveSettings(job: JobDocument, backend?: StateBackendKind | null): JobSettings {
  const s = job.settings ?? {};
  const cp = s.checkpointing ?? {};
  const d = DEFAULT_SETTINGS;
  return {
    stateBackend: backend ?? s.stateBackend ?? d.stateBackend,
    checkpointing: {
      interval: cp.interval == null || cp.interval === '' ? null : orDefault(() => parseDuration(cp.interval!), null),
      mode: cp.mode ?? d.checkpointing.mode,
      timeout:
        cp.timeout == null
          ? d.checkpointing.timeout
          : orDefault(() => parseDuration(cp.timeout!), d.checkpointing.timeout),
      minPause:
        cp.minPause == null
          ? d.checkpointing.minPause
          : orDefault(() => parseDuration(cp.minPause!), d.checkpointing.minPause),
      retained: cp.retained ?? d.checkpointing.retained,
      incremental: cp.incremental ?? d.checkpointing.incremental,
      dir: cp.dir ?? d.checkpointing.dir,
      tolerableFailures: cp.tolerableFailures ?? d.checkpointing.tolerableFailures,
    },
    memoryStateLimit:
      s.memoryStateLimit == null
        ? d.memoryStateLimit
        : orDefault(() => parseSize(s.memoryStateLimit!), d.memoryStateLimit),
    parallelism: s.parallelism ?? d.parallelism,
    maxParallelism: s.maxParallelism ?? d.maxParallelism,
    restart: {
      attempts: s.restart?.attempts ?? d.restart.attempts,
      delay:
        s.restart?.delay == null ? d.restart.delay : orDefault(() => parseDuration(s.restart!.delay!), d.restart.delay),
    },
  };
}

export function runConfig(job: JobDocument, backend: StateBackendKind | null, restoreFrom: string | null): RunConfig {
  return { settings: effectiveSettings(job, backend), backendSource: backend ? 'override' : 'job', restoreFrom };
}
