/**
 * `weir flink run ... --gateway URL` and `weir flink stop JOBID --savepoint DIR --gateway URL`:
 * the shared gateway steps (engine/flink/gateway-job.ts) with progress and results printed: each
 * job's id and web UI address, its states until it ends (or, with --detach, nothing more).
 */
import {
  jobFailure,
  openGatewaySession,
  stopWithSavepoint,
  submitScript,
  waitForJobEnd,
  type GatewaySession,
} from '../flink/gateway-job.ts';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './output.ts';

export interface GatewayRunOptions {
  gateway: string;
  script: string;
  settings: Record<string, string>;
  detach: boolean;
  quiet: boolean;
}

export async function runOnGateway(opts: GatewayRunOptions, io: CliIO): Promise<number> {
  const say = (text: string) => {
    if (!opts.quiet) io.err(`weir flink run: ${text}`);
  };
  let gs: GatewaySession | undefined;
  try {
    gs = await openGatewaySession(opts.gateway, opts.settings);
    const ui = gs.ui;
    say(`session ${gs.session} on the SQL Gateway ${opts.gateway}`);
    const jobs = await submitScript(gs, opts.script, ({ jobId, line }) => {
      io.out(jobId); // the result, for scripts: weir flink stop "$(weir flink run ... --detach)"
      say(`job ${jobId} submitted (the statement at line ${line}); web UI ${ui}/#/job/running/${jobId}`);
    });
    if (opts.detach) return EXIT_OK;
    for (const { jobId } of jobs) {
      const status = await waitForJobEnd(gs, jobId, (s) => say(`job ${jobId} ${s}`));
      if (status !== 'FINISHED') {
        io.err(`weir flink run: job ${jobId} ${status}: ${await jobFailure(ui, jobId)}`);
        return EXIT_FAILURE;
      }
    }
    return EXIT_OK;
  } catch (e) {
    io.err(`weir flink run: ${(e as Error).message.replace(/\s*\n\s*/g, ' | ')}`);
    return EXIT_FAILURE;
  } finally {
    await gs?.close();
  }
}

/** `STOP JOB ... WITH SAVEPOINT` into DIR; prints the savepoint's path on stdout. */
export async function stopOnGateway(gateway: string, jobId: string, dir: string, io: CliIO): Promise<number> {
  try {
    const path = await stopWithSavepoint(gateway, jobId, dir);
    io.err(`weir flink stop: job ${jobId} stopped with a savepoint`);
    if (path !== undefined) io.out(path);
    return EXIT_OK;
  } catch (e) {
    io.err(`weir flink stop: ${(e as Error).message.replace(/\s*\n\s*/g, ' | ')}`);
    return EXIT_FAILURE;
  }
}
