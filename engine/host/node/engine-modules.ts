/**
 * The engine parts the host drives, loaded on first use (`weir serve` starts without loading the
 * runtime). A part that fails to load makes only its calls fail, with a clear
 * `internal: runtime not available (...)`; everything else in the host keeps working.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { ImportResult } from '../common/api.ts';
import type { JobHandle, StartJobOptions } from '../../runtime/job/api.ts';
import type { RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import { HostError } from '../common/errors.ts';

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
  return load('engine/runtime/job-runner.ts', () => import('../../runtime/job/job-runner.ts'), (m) => m.startJob);
}

export function loadExportFlinkSql(): Promise<(job: NormalizedJob, opts?: { flinkVersion?: '1.19' | '1.20' | '2.x'; pathPrefix?: string }) => unknown> {
  return load('engine/sql/flink/index.ts', () => import('../../export/flink-sql/index.ts'), (m) => m.exportFlinkSql);
}

export function loadImportFlinkSql(): Promise<(sql: string, opts: { baseDir?: string; name?: string }) => ImportResult> {
  return load('engine/import/flink-sql/index.ts', () => import('../../import/flink-sql/index.ts'), (m) => m.importFlinkSql);
}

/** Retained checkpoints and savepoints of a job (its `checkpointing.dir`), newest first. */
export function loadListRetained(): Promise<(job: NormalizedJob) => Promise<RetainedCheckpoint[]>> {
  return load('engine/runtime/job-runner.ts (listRetainedCheckpoints)', () => import('../../runtime/job/job-runner.ts'), (m) => m.listRetainedCheckpoints);
}
