/**
 * How the local host takes the job a request carries: the folder it lives in, validated (with its
 * run overrides applied, as `weir run` does), its paths confined to the workspace and the folders
 * granted to its document, and the environment variables it names allowed. Shared by the run,
 * preview, export and sampling methods, so each reads a job the same way.
 */
import { dirname } from 'node:path';
import type { JobDocument } from '../../graph/types.ts';
import type { SinkCatalogs } from '../../graph/check-sink-tables.ts';
import { applyRunOverrides, type RunOverrides } from '../../graph/run-overrides.ts';
import { fileSampler } from '../../connectors/sampled-types.ts';
import { readSinkCatalogs } from '../../connectors/postgres/sink-catalogs.ts';
import { checkJobEnv, envRefusal, type EnvAllowance } from './env-allowance.ts';
import { confineRun } from './run-confinement.ts';
import { validatedJob } from './validated-job.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

export type RequestJobs = ReturnType<typeof requestJobs>;

export function requestJobs(files: WorkspaceFiles, allowEnv: EnvAllowance) {
  /** `sampled`: also type undeclared file sources from their data (only once their paths are confined). */
  function validated(input: unknown, baseDir: string, sampled = false, sinkCatalogs?: SinkCatalogs) {
    return validatedJob(input, { baseDir, sinkCatalogs, ...(sampled ? { sampled: fileSampler(baseDir) } : {}) });
  }

  /** A run writes outputs and checkpoints beside its job, so its job must sit where we may write. */
  async function baseDirFor(path: string | undefined, mode: 'read' | 'write'): Promise<string> {
    return path ? dirname(await files.resolve(path, mode)) : files.workspace;
  }

  /** The job file's real path (null: the unsaved document), the key of its granted folders. */
  async function documentOf(path: string | undefined): Promise<string | null> {
    return path ? files.resolve(path, 'write') : null;
  }

  /** The PostgreSQL sinks' tables, read with only the environment variables the user allowed. */
  function sinkCatalogsOf(input: unknown): Promise<SinkCatalogs> {
    return readSinkCatalogs(input, { envRefusal: (name) => envRefusal(name, allowEnv) });
  }

  /**
   * A job as a run (here or on Flink) takes it: overrides applied, validated, its paths confined.
   * `checkSinkTables`: also check the sinks' columns against their tables (a run here writes them).
   */
  async function runnableJob(
    input: JobDocument,
    path: string | undefined,
    overrides: RunOverrides,
    checkSinkTables = false,
  ) {
    const baseDir = await baseDirFor(path, 'write');
    const granted = await files.foldersFor(await documentOf(path));
    const overridden = applyRunOverrides(input, overrides);
    const valid = validated(overridden, baseDir).job;
    const job = await confineRun({ ...valid, baseDir }, files, baseDir, granted);
    // The files are the run's now: a misspelled or mistyped column of a source that had no data
    // at design time fails here, at the start, instead of writing NULLs.
    validated(overridden, baseDir, true, checkSinkTables ? await sinkCatalogsOf(overridden) : undefined);
    checkJobEnv(job, allowEnv);
    return { job, baseDir, granted };
  }

  return { validated, baseDirFor, documentOf, sinkCatalogsOf, runnableJob };
}
