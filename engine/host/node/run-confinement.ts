/**
 * Runs are confined like file access: over `weir serve` and the app, every path a job touches
 * (file sources, file sinks, its checkpoint folder) must resolve, after `..` and every symlink,
 * inside the workspace, the job document's own folder (a document opened through a native
 * dialog is granted with its folder), or a folder the user picked for this document in a native
 * dialog (host `grantFolder`). The CLI does not come here: it is the user's own shell.
 *
 * The job that runs gets the resolved real paths, so a symlink swapped after this check cannot
 * redirect it. Refusals are `forbidden_path` naming the field (`nodes[2].config.path: ...`).
 */
import type { NormalizedJob } from '../../graph/types.ts';
import { HostError } from '../common/errors.ts';
import type { WorkspaceFiles } from './workspace-files.ts';
import { localFileOf } from '../../graph/local-files.ts';

type Check = (where: string, p: string, mode: 'read' | 'write') => Promise<string>;

function checker(files: WorkspaceFiles, baseDir: string, granted: readonly string[]): Check {
  return async (where, p, mode) => {
    try {
      return await files.resolve(p, mode, { base: baseDir, extraRoot: baseDir, extraRoots: granted });
    } catch (err) {
      if (err instanceof HostError && err.code === 'forbidden_path') {
        throw new HostError(
          'forbidden_path',
          `${where}: ${p} is outside the workspace ${files.workspace} and the job's folder ` +
            `${baseDir}${granted.length ? ` and the folders allowed for it (${granted.join(', ')})` : ''}; ` +
            `a run may only read and write there`,
        );
      }
      throw err;
    }
  };
}

/**
 * The job with its checkpoint folder confined (real path): what `listCheckpoints` reads, so one
 * document cannot list another job's checkpoints (paths, times, sizes) outside the workspace.
 */
export async function confineCheckpoints(
  job: NormalizedJob,
  files: WorkspaceFiles,
  baseDir: string,
  granted: readonly string[] = [],
): Promise<NormalizedJob> {
  return withCheckpointDir(job, checker(files, baseDir, granted));
}

async function withCheckpointDir(job: NormalizedJob, check: Check): Promise<NormalizedJob> {
  const dir = await check('settings.checkpointing.dir', job.settings.checkpointing.dir, 'write');
  return { ...job, settings: { ...job.settings, checkpointing: { ...job.settings.checkpointing, dir } } };
}

export async function confineRun(
  job: NormalizedJob,
  files: WorkspaceFiles,
  baseDir: string,
  granted: readonly string[] = [],
): Promise<NormalizedJob> {
  const check = checker(files, baseDir, granted);
  const nodes: NormalizedJob['nodes'] = [];
  for (const [i, n] of job.nodes.entries()) {
    const file = localFileOf(n);
    if (file) {
      const path = await check(`nodes[${i}].config.${file.key}`, file.path, file.access);
      nodes.push({ ...n, config: { ...n.config, [file.key]: path } } as typeof n);
    } else nodes.push(n);
  }
  return withCheckpointDir({ ...job, nodes }, check);
}
