/**
 * `weir flink run ... --gateway URL` and `weir flink stop JOBID --savepoint DIR --gateway URL`:
 * a script submitted to a running Flink SQL Gateway, statement by statement in one session (SET
 * statements configure the session), and the job it starts followed with `SHOW JOBS` until it
 * ends (or, with --detach, left running after its id and the web UI address are printed).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GatewayError, SqlGatewayClient, innermostCause } from './flink-gateway.ts';
import { splitStatements } from './flink-statements.ts';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './output.ts';

const TERMINAL = new Set(['FINISHED', 'FAILED', 'CANCELED']);
const POLL_MS = 500;

export interface GatewayRunOptions {
  gateway: string;
  script: string;
  settings: Record<string, string>;
  detach: boolean;
  quiet: boolean;
}

function webUi(config: Record<string, string>, fallback: string): string {
  const host = config['rest.address'];
  const port = config['rest.port'];
  return host && port ? `http://${host}:${port}` : fallback;
}

/** Flink's error of a failed job, from the cluster's REST API (the web UI's), in one line. */
async function jobFailure(ui: string, jobId: string): Promise<string> {
  try {
    const r = (await (await fetch(`${ui}/jobs/${jobId}/exceptions`)).json()) as {
      exceptionHistory?: { entries?: Array<{ stacktrace?: string }> };
    };
    const trace = r.exceptionHistory?.entries?.[0]?.stacktrace;
    if (trace) return innermostCause(trace);
  } catch {
    // the web UI is not reachable from here: point at it instead
  }
  return `see ${ui}/#/job/completed/${jobId}/exceptions`;
}

export async function runOnGateway(opts: GatewayRunOptions, io: CliIO): Promise<number> {
  const say = (text: string) => {
    if (!opts.quiet) io.err(`weir flink run: ${text}`);
  };
  let statements;
  try {
    statements = splitStatements(opts.script);
  } catch (e) {
    io.err(`weir flink run: ${(e as Error).message}`);
    return EXIT_FAILURE;
  }
  const client = new SqlGatewayClient(opts.gateway);
  let session: string | undefined;
  try {
    session = await client.openSession(opts.settings);
    const ui = webUi(await client.sessionConfig(session), opts.gateway);
    say(`session ${session} on the SQL Gateway ${opts.gateway}`);
    const jobs: string[] = [];
    for (const s of statements) {
      let result;
      try {
        result = await client.execute(session, s.sql);
      } catch (e) {
        if (e instanceof GatewayError) throw new GatewayError(`line ${s.line}: ${e.message}`);
        throw e;
      }
      if (!result.jobId) continue;
      jobs.push(result.jobId);
      io.out(result.jobId); // the result, for scripts: weir flink stop "$(weir flink run ... --detach)"
      say(
        `job ${result.jobId} submitted (the statement at line ${s.line}); web UI ${ui}/#/job/running/${result.jobId}`,
      );
    }
    if (opts.detach) return EXIT_OK;
    for (const jobId of jobs) {
      let status: string | undefined;
      let shown = '';
      while (!status || !TERMINAL.has(status)) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        status = await client.jobStatus(session, jobId);
        if (status && status !== shown) say(`job ${jobId} ${(shown = status)}`);
      }
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
    if (session) await client.closeSession(session);
  }
}

/** `STOP JOB 'id' WITH SAVEPOINT` into DIR; prints the savepoint's path on stdout. */
export async function stopOnGateway(gateway: string, jobId: string, dir: string, io: CliIO): Promise<number> {
  const client = new SqlGatewayClient(gateway);
  let session: string | undefined;
  const uri = /^[a-z][a-z0-9+.-]*:\/\//i.test(dir) ? dir : pathToFileURL(resolve(dir)).href;
  try {
    // 1.20 reads the new key and falls back to the old; 2.x knows only the new one.
    session = await client.openSession({ 'execution.checkpointing.savepoint-dir': uri, 'state.savepoints.dir': uri });
    const { rows } = await client.execute(session, `STOP JOB '${jobId.replace(/'/g, "''")}' WITH SAVEPOINT`);
    const path = rows[0]?.[0];
    io.err(`weir flink stop: job ${jobId} stopped with a savepoint`);
    if (path !== undefined) io.out(String(path));
    return EXIT_OK;
  } catch (e) {
    io.err(`weir flink stop: ${(e as Error).message.replace(/\s*\n\s*/g, ' | ')}`);
    return EXIT_FAILURE;
  } finally {
    if (session) await client.closeSession(session);
  }
}
