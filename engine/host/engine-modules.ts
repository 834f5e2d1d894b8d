/**
 * The engine parts the host drives, loaded on first use (`weir serve` starts without loading the
 * runtime). A part that fails to load makes only its calls fail, with a clear
 * `internal: runtime not available (...)`; everything else in the host keeps working.
 */
import type { FileSourceConfig, NormalizedJob } from '../graph/types.ts';
import type { JobHandle, StartJobOptions } from '../runtime/api.ts';
import type { RetainedCheckpoint } from '../checkpoint/types.ts';
import { HostError } from './errors.ts';

// Literal specifiers, so bundlers (the Electron build) include the modules; loaded on first use.
async function load<T>(what: string, importer: () => Promise<unknown>, pick: (mod: Record<string, unknown>) => unknown): Promise<T> {
  let mod: Record<string, unknown>;
  try {
    mod = (await importer()) as Record<string, unknown>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new HostError('internal', `runtime not available (${what} has not landed)`);
    }
    throw new HostError('internal', `runtime not available (${what}: ${(err as Error).message})`);
  }
  const fn = pick(mod);
  if (typeof fn !== 'function') throw new HostError('internal', `runtime not available (${what} lacks the expected export)`);
  return fn as T;
}

export function loadStartJob(): Promise<(options: StartJobOptions) => Promise<JobHandle>> {
  return load('engine/runtime/job-runner.ts', () => import('../runtime/job-runner.ts'), (m) => m.startJob);
}

export function loadExportFlinkSql(): Promise<(job: NormalizedJob) => unknown> {
  return load('engine/sql/flink/index.ts', () => import('../sql/flink/index.ts'), (m) => m.exportFlinkSql);
}

/** Retained checkpoints and savepoints of a job (its `checkpointing.dir`), newest first. */
export function loadListRetained(): Promise<(job: NormalizedJob) => Promise<RetainedCheckpoint[]>> {
  return load('engine/runtime/job-runner.ts (listRetainedCheckpoints)', () => import('../runtime/job-runner.ts'), (m) => m.listRetainedCheckpoints);
}

/** Columns of a file source sampled from its data (the Flink exporter's sampler). */
export function loadInferFileColumns(): Promise<(config: FileSourceConfig) => { ok: true; columns: Array<{ name: string; type: string }> } | { ok: false; message: string }> {
  return load('engine/sql/flink/infer-columns.ts', () => import('../sql/flink/infer-columns.ts'), (m) => m.inferFileColumns);
}
