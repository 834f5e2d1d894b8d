/**
 * One bench run of a job: wall time and CPU time from the task process's `running` to
 * `finishing` (every record processed and committed; only teardown remains), so process start-up
 * (tsx compiling the sources) is not counted. CPU time is the task processes' plus this process's
 * (the job master's), read from /proc (cpu-time.ts).
 */
import type { NormalizedJob } from '../engine/graph/types.ts';
import { startJob } from '../engine/runtime/job/job-runner.ts';
import { cpuBetween, sampleCpu, type CpuSample } from './cpu-time.ts';

export interface TimedRun {
  wallMs: number;
  /** CPU seconds of the task processes and of the job master; null without /proc. */
  cpu: { tasks: number; master: number } | null;
}

export async function timedRun(job: NormalizedJob): Promise<TimedRun> {
  let started = 0;
  let ended = 0;
  let cpu0: CpuSample | null = null;
  let cpu1: CpuSample | null = null;
  const handle = await startJob({
    job,
    onEvent: (e) => {
      if (e.type === 'job.status' && e.status === 'running' && !started) {
        started = performance.now();
        cpu0 = sampleCpu();
      }
      if (e.type === 'job.status' && e.status === 'finishing' && !ended) {
        ended = performance.now();
        cpu1 = sampleCpu();
      }
    },
  });
  const r = await handle.done;
  if (r.status !== 'finished') throw new Error(`job ${r.status}: ${r.cause}`);
  const a = cpu0 as CpuSample | null;
  const b = cpu1 as CpuSample | null;
  const d = a && b ? cpuBetween(a, b) : null;
  return {
    wallMs: (ended || performance.now()) - started,
    cpu: d ? { tasks: d.children, master: d.self } : null,
  };
}
