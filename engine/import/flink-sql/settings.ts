/**
 * SET statements as Weir job settings: the keys Weir's own export writes for Flink 1.19, 1.20 and
 * 2.x (engine/export/flink-sql/settings.ts, versions.ts). A key without a Weir setting is reported.
 */
import type { JobSettingsInput } from '../../graph/types.ts';
import type { JobBuilder } from './builder.ts';
import type { SetStatement } from './statements.ts';
import { configMs, weirDuration } from './values.ts';
import { jobPath } from './paths.ts';

export interface ImportedSettings {
  settings: JobSettingsInput;
  idleTimeout: string | null;
}

export function readSettings(b: JobBuilder, sets: SetStatement[]): ImportedSettings {
  const settings: JobSettingsInput = {};
  const cp: NonNullable<JobSettingsInput['checkpointing']> = {};
  const restart: NonNullable<JobSettingsInput['restart']> = {};
  let backend: string | null = null;
  let storage: string | null = null;
  let idleTimeout: string | null = null;
  const duration = (s: SetStatement): string | undefined => {
    const ms = configMs(s.value);
    if (ms === null) {
      b.problem(s.pos, `SET '${s.key}': '${s.value}' is not a duration Weir reads (such as '10 s', '500 ms')`);
      return undefined;
    }
    return weirDuration(ms);
  };
  const int = (s: SetStatement): number | undefined => {
    const n = Number(s.value);
    if (!Number.isInteger(n) || n < 0) {
      b.problem(s.pos, `SET '${s.key}': '${s.value}' is not a whole number`);
      return undefined;
    }
    return n;
  };
  for (const s of sets) {
    switch (s.key) {
      case 'execution.runtime-mode':
        if (s.value.toLowerCase() !== 'streaming')
          b.problem(s.pos, `SET 'execution.runtime-mode' = '${s.value}': Weir runs every job as a stream`);
        break;
      case 'table.local-time-zone':
        if (s.value !== 'UTC')
          b.problem(s.pos, `SET 'table.local-time-zone' = '${s.value}': Weir's windows and timestamps are UTC`);
        break;
      case 'pipeline.auto-watermark-interval':
        if (configMs(s.value) !== 0)
          b.problem(
            s.pos,
            `SET 'pipeline.auto-watermark-interval' = '${s.value}': Weir emits a watermark on every advance (as Flink with 0 ms), so lateness may differ`,
          );
        break;
      case 'parallelism.default': {
        const n = int(s);
        if (n) settings.parallelism = n;
        break;
      }
      case 'pipeline.max-parallelism': {
        const n = int(s);
        if (n) settings.maxParallelism = n;
        break;
      }
      case 'state.backend.type':
      case 'state.backend':
        backend = s.value.toLowerCase();
        break;
      case 'execution.checkpointing.storage':
      case 'state.checkpoint-storage':
        storage = s.value.toLowerCase();
        break;
      case 'execution.checkpointing.dir':
      case 'state.checkpoints.dir':
        cp.dir = jobPath(b, s.value, s.pos);
        break;
      case 'execution.checkpointing.interval': {
        const d = duration(s);
        if (d) cp.interval = d;
        break;
      }
      case 'execution.checkpointing.mode':
        cp.mode = s.value.toUpperCase() === 'AT_LEAST_ONCE' ? 'at-least-once' : 'exactly-once';
        break;
      case 'execution.checkpointing.timeout': {
        const d = duration(s);
        if (d) cp.timeout = d;
        break;
      }
      case 'execution.checkpointing.min-pause': {
        const d = duration(s);
        if (d) cp.minPause = d;
        break;
      }
      case 'execution.checkpointing.num-retained':
      case 'state.checkpoints.num-retained': {
        const n = int(s);
        if (n) cp.retained = n;
        break;
      }
      case 'execution.checkpointing.tolerable-failed-checkpoints': {
        const n = int(s);
        if (n !== undefined) cp.tolerableFailures = n;
        break;
      }
      case 'execution.checkpointing.incremental':
      case 'state.backend.incremental':
        cp.incremental = s.value.toLowerCase() === 'true';
        break;
      case 'restart-strategy.type':
      case 'restart-strategy':
        if (s.value === 'none' || s.value === 'disable' || s.value === 'off') restart.attempts = 0;
        else if (s.value !== 'fixed-delay')
          b.problem(s.pos, `SET 'restart-strategy.type' = '${s.value}': Weir restarts with a fixed delay only`);
        break;
      case 'restart-strategy.fixed-delay.attempts': {
        const n = int(s);
        if (n !== undefined) restart.attempts = n;
        break;
      }
      case 'restart-strategy.fixed-delay.delay': {
        const d = duration(s);
        if (d) restart.delay = d;
        break;
      }
      case 'table.exec.source.idle-timeout':
        idleTimeout = duration(s) ?? null;
        break;
      default:
        b.problem(s.pos, `SET '${s.key}' has no Weir setting; left out`);
    }
  }
  if (backend === 'rocksdb') settings.stateBackend = 'rocksdb';
  else if (backend !== null || storage !== null) settings.stateBackend = storage === 'jobmanager' ? 'memory' : 'fs';
  if (Object.keys(cp).length > 0) settings.checkpointing = cp;
  if (Object.keys(restart).length > 0) settings.restart = restart;
  return { settings, idleTimeout };
}
