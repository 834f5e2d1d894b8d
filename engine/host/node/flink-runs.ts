/**
 * The host's Run on Flink: runs by id, each on Weir's Flink runner (a local MiniCluster in a JVM,
 * engine/flink/runner-process.ts, the same as `weir flink run`) or submitted to a Flink SQL Gateway
 * (engine/flink/gateway-job.ts, the same as `weir flink run --gateway`), and what Flink reports as
 * `flink.run` snapshot events.
 *
 * Rules:
 * - A run that cannot start (no Java, an unbuilt runner, an unreachable gateway, a statement the
 *   gateway refuses) is refused in one line, as the CLI says it; nothing keeps running.
 * - Snapshots are emitted when the phase, the job or its state changes, and otherwise at most once
 *   per `interval` ms (Flink's progress comes five times a second).
 * - A local run's JVM ends with the host (dispose); a gateway job belongs to its cluster and keeps
 *   running there, only the polling stops.
 */
import { join } from 'node:path';
import type { FlinkRunSnapshot, HostEvent } from '../common/api.ts';
import type { MethodParams } from '../common/api.ts';
import type { NormalizedJob } from '../../graph/types.ts';
import { HostError } from '../common/errors.ts';
import { runnerAvailability, startFlinkRunner, type FlinkRunnerEvent } from '../../flink/runner-process.ts';
import { writeJobScript } from '../../flink/job-script.ts';
import {
  jobDetails,
  jobFailure,
  openGatewaySession,
  stopJob,
  stopWithSavepoint,
  submitScript,
  TERMINAL_JOB_STATES,
  type GatewaySession,
} from '../../flink/gateway-job.ts';

type FlinkRunRequest = Omit<MethodParams<'flinkRun'>, 'job' | 'path'> & { job: NormalizedJob; baseDir: string };

interface FlinkRunRecord {
  snap: FlinkRunSnapshot;
  stop(savepoint: boolean): Promise<{ savepoint?: string }>;
  /** Ends what this host started (a local JVM, the gateway polling). */
  dispose(): void;
}

const POLL_MS = 500;
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' | ');

export class FlinkRuns {
  private readonly runs = new Map<string, FlinkRunRecord>();
  private seq = 0;

  constructor(private readonly opts: { emit: (e: HostEvent) => void; interval?: number }) {}

  async start(req: FlinkRunRequest): Promise<FlinkRunSnapshot> {
    const flinkRunId = `flink-${++this.seq}-${Date.now().toString(36)}`;
    const snap: FlinkRunSnapshot = {
      flinkRunId,
      jobName: req.job.name,
      target: req.target.kind,
      flinkVersion: req.flinkVersion,
      phase: 'starting',
      jobId: null,
      state: null,
      vertices: [],
      checkpoints: 0,
      failures: [],
      webUi: null,
    };
    const settings: Record<string, string> = {};
    if (req.parallelism !== undefined) settings['parallelism.default'] = String(req.parallelism);
    const record =
      req.target.kind === 'local'
        ? this.startLocal(snap, req, settings)
        : await this.startOnGateway(snap, req, req.target.url, settings);
    this.runs.set(flinkRunId, record);
    return { ...snap };
  }

  async stop(flinkRunId: string, savepoint: boolean): Promise<{ savepoint?: string }> {
    const r = this.runs.get(flinkRunId);
    if (!r) throw new HostError('not_found', `no Flink run '${flinkRunId}'`);
    if (r.snap.phase === 'ended') throw new HostError('job_not_running', `Flink run '${flinkRunId}' has ended`);
    return r.stop(savepoint);
  }

  dispose(): void {
    for (const r of this.runs.values()) r.dispose();
    this.runs.clear();
  }

  /** Emits the snapshot now (`now`) or within the interval, coalescing progress in between. */
  private publisher(snap: FlinkRunSnapshot): (now: boolean) => void {
    let timer: NodeJS.Timeout | null = null;
    const send = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      this.opts.emit({ type: 'flink.run', ...structuredClone(snap) });
    };
    return (now) => {
      if (now) send();
      else timer ??= setTimeout(send, this.opts.interval ?? 250);
    };
  }

  private startLocal(snap: FlinkRunSnapshot, req: FlinkRunRequest, settings: Record<string, string>): FlinkRunRecord {
    const available = runnerAvailability(req.flinkVersion);
    if (!available.ok) throw new HostError('unsupported', available.reason);
    const script = writeJobScript(req.job, { line: req.flinkVersion });
    const publish = this.publisher(snap);
    const onEvent = (e: FlinkRunnerEvent) => {
      switch (e.event) {
        case 'job':
          Object.assign(snap, { phase: 'running', jobId: e.jobId, state: 'CREATED', vertices: [], checkpoints: 0 });
          return publish(true);
        case 'progress': {
          const changed = e.state !== snap.state;
          Object.assign(snap, { state: e.state, vertices: e.vertices, checkpoints: e.checkpoints });
          return publish(changed);
        }
        case 'failure':
          snap.failures.push(oneLine(e.message));
          return publish(true);
        case 'finished':
          Object.assign(snap, { state: e.state, vertices: e.vertices, checkpoints: e.checkpoints });
          return publish(true);
      }
    };
    const handle = startFlinkRunner(
      { line: req.flinkVersion, scripts: [script.file], settings, onEvent },
      available.classpath,
    );
    let stopped = false;
    void handle.result.then((r) => {
      script.dispose();
      snap.phase = 'ended';
      snap.ok = r.ok;
      if (!r.ok)
        snap.error = stopped ? 'stopped: the local Flink cluster ended with its JVM' : oneLine(r.error ?? 'failed');
      publish(true);
    });
    return {
      snap,
      stop: async (savepoint) => {
        if (savepoint)
          throw new HostError(
            'unsupported',
            'a job on the local MiniCluster stops without a savepoint (the cluster ends with the run); use a SQL Gateway for savepoints',
          );
        stopped = true;
        handle.stop();
        return {};
      },
      dispose: () => handle.stop(),
    };
  }

  private async startOnGateway(
    snap: FlinkRunSnapshot,
    req: FlinkRunRequest,
    url: string,
    settings: Record<string, string>,
  ): Promise<FlinkRunRecord> {
    const script = writeJobScript(req.job, { line: req.flinkVersion });
    let gs: GatewaySession | undefined;
    let jobId: string;
    try {
      gs = await openGatewaySession(url, settings);
      const jobs = await submitScript(gs, script.text);
      if (jobs.length === 0) throw new HostError('invalid_job', 'the exported script started no Flink job');
      jobId = jobs[0].jobId;
    } catch (e) {
      await gs?.close();
      if (e instanceof HostError) throw e;
      throw new HostError('io_error', oneLine((e as Error).message));
    } finally {
      script.dispose();
    }
    const session = gs;
    const publish = this.publisher(snap);
    Object.assign(snap, { phase: 'running', jobId, state: 'CREATED', webUi: `${session.ui}/#/job/running/${jobId}` });
    let polling = true;
    const poll = async () => {
      while (polling) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        if (!polling) break;
        const details = await jobDetails(session.ui, jobId);
        const state = details?.state ?? (await session.client.jobStatus(session.session, jobId).catch(() => undefined));
        const changed = state !== undefined && state !== snap.state;
        if (details) Object.assign(snap, { vertices: details.vertices, checkpoints: details.checkpoints });
        if (state !== undefined) snap.state = state;
        if (state !== undefined && TERMINAL_JOB_STATES.has(state)) {
          snap.phase = 'ended';
          snap.ok = state === 'FINISHED';
          snap.webUi = `${session.ui}/#/job/completed/${jobId}`;
          if (state === 'FAILED') snap.error = `job ${jobId} FAILED: ${await jobFailure(session.ui, jobId)}`;
          if (state === 'CANCELED') snap.error = `job ${jobId} CANCELED`;
          polling = false;
        }
        publish(changed || snap.phase === 'ended');
      }
      await session.close();
    };
    void poll();
    return {
      snap,
      stop: async (savepoint) => {
        try {
          if (!savepoint) {
            await stopJob(url, jobId);
            return {};
          }
          const path = await stopWithSavepoint(url, jobId, join(req.baseDir, 'flink-savepoints'));
          if (path !== undefined) snap.savepoint = path;
          publish(true);
          return path === undefined ? {} : { savepoint: path };
        } catch (e) {
          throw new HostError('io_error', oneLine((e as Error).message));
        }
      },
      dispose: () => {
        polling = false;
      },
    };
  }
}
