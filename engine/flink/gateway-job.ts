/**
 * A Flink SQL script on a running Flink SQL Gateway, as `weir flink run --gateway` and the app's
 * "Run on Flink" both do it: the script submitted statement by statement in one session (SET
 * statements configure the session), the jobs it starts followed until they end, what the cluster's
 * REST API (the web UI's) reports about a job, and `STOP JOB ... WITH SAVEPOINT`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GatewayError, SqlGatewayClient, innermostCause } from './gateway-client.ts';
import type { FlinkVertex } from './runner-process.ts';
import { splitStatements } from './statements.ts';

export const TERMINAL_JOB_STATES: ReadonlySet<string> = new Set(['FINISHED', 'FAILED', 'CANCELED']);
const POLL_MS = 500;

export interface GatewaySession {
  client: SqlGatewayClient;
  session: string;
  /** The cluster's web UI (and REST API) address, as the session's configuration names it. */
  ui: string;
  close(): Promise<void>;
}

/** A job a statement of the script started, with the statement's 1-based line. */
export interface SubmittedJob {
  jobId: string;
  line: number;
}

function webUi(config: Record<string, string>, fallback: string): string {
  const host = config['rest.address'];
  const port = config['rest.port'];
  return host && port ? `http://${host}:${port}` : fallback;
}

/** Opens a session whose configuration is `settings`; the caller closes it. */
export async function openGatewaySession(gateway: string, settings: Record<string, string>): Promise<GatewaySession> {
  const client = new SqlGatewayClient(gateway);
  const session = await client.openSession(settings);
  try {
    const ui = webUi(await client.sessionConfig(session), gateway.replace(/\/+$/, ''));
    return { client, session, ui, close: () => client.closeSession(session) };
  } catch (e) {
    await client.closeSession(session);
    throw e;
  }
}

/**
 * Submits every statement of `script` in order; `onJob` hears each job as its statement starts it.
 * A statement Flink refuses throws a GatewayError naming its line. Checks the whole script's
 * syntax first, so nothing is submitted from a script that cannot be split.
 */
export async function submitScript(
  gs: GatewaySession,
  script: string,
  onJob: (job: SubmittedJob) => void = () => undefined,
): Promise<SubmittedJob[]> {
  const statements = splitStatements(script);
  const jobs: SubmittedJob[] = [];
  for (const s of statements) {
    let result;
    try {
      result = await gs.client.execute(gs.session, s.sql);
    } catch (e) {
      if (e instanceof GatewayError) throw new GatewayError(`line ${s.line}: ${e.message}`);
      throw e;
    }
    if (!result.jobId) continue;
    const job = { jobId: result.jobId, line: s.line };
    jobs.push(job);
    onJob(job);
  }
  return jobs;
}

/**
 * Polls the job's status (`SHOW JOBS`) until it is FINISHED, FAILED or CANCELED, or `stopped()`
 * says to give up (then answers the last status seen); `onState` hears every change.
 */
export async function waitForJobEnd(
  gs: GatewaySession,
  jobId: string,
  onState: (state: string) => void,
  stopped: () => boolean = () => false,
): Promise<string | undefined> {
  let status: string | undefined;
  while (!stopped() && (!status || !TERMINAL_JOB_STATES.has(status))) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = await gs.client.jobStatus(gs.session, jobId);
    if (now && now !== status) onState((status = now));
  }
  return status;
}

/** Flink's error of a failed job, from the cluster's REST API (the web UI's), in one line. */
export async function jobFailure(ui: string, jobId: string): Promise<string> {
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

export interface GatewayJobDetails {
  state: string;
  vertices: FlinkVertex[];
  checkpoints: number;
}

/**
 * What the cluster's REST API says of a job (state, records in/out per vertex, completed
 * checkpoints), or null when the web UI cannot be reached from here (a gateway in front of a
 * cluster on another network): the status from `SHOW JOBS` is then all there is.
 */
export async function jobDetails(ui: string, jobId: string): Promise<GatewayJobDetails | null> {
  try {
    const job = (await (await fetch(`${ui}/jobs/${jobId}`)).json()) as {
      state?: string;
      vertices?: Array<{
        id: string;
        name: string;
        parallelism: number;
        status: string;
        metrics?: Record<string, number>;
      }>;
    };
    if (!job.state) return null;
    const cps = (await (await fetch(`${ui}/jobs/${jobId}/checkpoints`)).json()) as { counts?: { completed?: number } };
    return {
      state: job.state,
      vertices: (job.vertices ?? []).map((v) => ({
        id: v.id,
        name: v.name,
        parallelism: v.parallelism,
        status: v.status,
        recordsIn: v.metrics?.['read-records'] ?? 0,
        recordsOut: v.metrics?.['write-records'] ?? 0,
      })),
      checkpoints: cps.counts?.completed ?? 0,
    };
  } catch {
    return null;
  }
}

const quoted = (jobId: string) => `'${jobId.replace(/'/g, "''")}'`;

/** `STOP JOB 'id' WITH SAVEPOINT` into `dir` (a path or a URI); answers the savepoint's path. */
export async function stopWithSavepoint(gateway: string, jobId: string, dir: string): Promise<string | undefined> {
  const uri = /^[a-z][a-z0-9+.-]*:\/\//i.test(dir) ? dir : pathToFileURL(resolve(dir)).href;
  // 1.20 reads the new key and falls back to the old; 2.x knows only the new one.
  const gs = await openGatewaySession(gateway, {
    'execution.checkpointing.savepoint-dir': uri,
    'state.savepoints.dir': uri,
  });
  try {
    const { rows } = await gs.client.execute(gs.session, `STOP JOB ${quoted(jobId)} WITH SAVEPOINT`);
    const path = rows[0]?.[0];
    return path === undefined ? undefined : String(path);
  } finally {
    await gs.close();
  }
}

/** `STOP JOB 'id'`: stops the job without a savepoint. */
export async function stopJob(gateway: string, jobId: string): Promise<void> {
  const gs = await openGatewaySession(gateway, {});
  try {
    await gs.client.execute(gs.session, `STOP JOB ${quoted(jobId)}`);
  } finally {
    await gs.close();
  }
}
