/**
 * The local host's run methods: start a run (overrides applied, validated, confined, restored from
 * a checkpoint the job may read), stop it, savepoint it, kill its task process, sample its edges,
 * list runs and checkpoints. The runs themselves live in the run registry (run-registry.ts).
 */
import type { EngineHost } from '../common/api.ts';
import { HostError } from '../common/errors.ts';
import { listRetainedCheckpoints } from '../../runtime/job/job-runner.ts';
import { guard } from './host-errors.ts';
import type { RequestJobs } from './request-jobs.ts';
import { confineCheckpoints } from './run-confinement.ts';
import type { RunRegistry } from './run-registry.ts';
import type { WorkspaceFiles } from './workspace-files.ts';

export type RunMethods = Pick<
  EngineHost,
  | 'run'
  | 'stop'
  | 'triggerSavepoint'
  | 'killTaskProcess'
  | 'sampleEdge'
  | 'listRuns'
  | 'checkpointHistory'
  | 'listCheckpoints'
>;

export function runMethods(files: WorkspaceFiles, jobs: RequestJobs, runs: RunRegistry): RunMethods {
  return {
    run: (req) =>
      guard(async () => {
        const { job, baseDir, granted } = await jobs.runnableJob(
          req.job,
          req.path,
          { parallelism: req.parallelism, stateBackend: req.stateBackend, checkpointing: req.checkpointing },
          true,
        );
        let from: string | undefined;
        if (req.restoreFrom && req.restoreFrom !== 'latest') {
          // A job's checkpoints live under its own folder, which may be a granted one outside the workspace.
          from = await files.resolve(req.restoreFrom, 'read', {
            base: baseDir,
            extraRoot: baseDir,
            extraRoots: granted,
          });
        }
        return runs.start({
          job,
          resume: req.restoreFrom === 'latest',
          from,
          clearOutput: req.clearOutput,
          allowNonRestoredState: req.allowNonRestoredState,
          ...(req.path !== undefined ? { document: req.path } : {}),
        });
      }),

    stop: ({ runId, savepoint }) => guard(() => runs.active(runId).stop({ savepoint })),
    triggerSavepoint: ({ runId }) => guard(() => runs.active(runId).triggerSavepoint()),
    killTaskProcess: ({ runId }) =>
      guard(async () => {
        runs.active(runId).killTaskProcess();
      }),
    sampleEdge: ({ runId, from, fromPort, to, on }) =>
      guard(async () => {
        const r = runs.get(runId);
        const port = fromPort ?? 'out';
        if (
          to !== undefined &&
          !r.job.edges.some((e) => e.from === from && e.to === to && (e.fromPort ?? 'out') === port)
        ) {
          throw new HostError(
            'invalid_request',
            `to: job '${r.job.name}' has no edge ${from}${port === 'out' ? '' : `.${port}`} -> ${to}`,
          );
        }
        const handle = on ? runs.active(runId) : r.handle;
        handle?.sampleEdge({ nodeId: from, port, on });
        return { target: `edge:${from}.${port}` };
      }),
    listRuns: () => guard(async () => runs.list()),
    checkpointHistory: ({ runId }) => guard(async () => runs.get(runId).handle?.checkpointHistory() ?? []),

    listCheckpoints: ({ job, path }) =>
      guard(async () => {
        const baseDir = await jobs.baseDirFor(path, 'read');
        const granted = await files.foldersFor(path ? await files.resolve(path, 'read') : null);
        const v = jobs.validated(job, baseDir).job;
        return listRetainedCheckpoints(await confineCheckpoints({ ...v, baseDir }, files, baseDir, granted));
      }),
  };
}
