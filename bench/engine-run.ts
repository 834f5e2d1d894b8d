/**
 * Runs a keyed tumbling-window job through the real engine (host + forked task process) and times
 * it from the moment the task process reports `running` until every record is processed and committed
 * (`finishing`), so process start-up (tsx compiling the sources) and teardown are not counted.
 */
import type { NormalizedJob, StateBackendKind } from '../engine/graph/types.ts';
import { validateJob } from '../engine/graph/validate.ts';
import { startJob } from '../engine/runtime/job/job-runner.ts';
import { sampleCpu, type CpuSample } from './cpu-time.ts';

/** CPU seconds of this process's children (the task process) so far; NaN without /proc. */
function childCpu(s: CpuSample | null): number {
  if (!s) return NaN;
  let total = 0;
  for (const v of s.children.values()) total += v;
  return total;
}

export interface BenchJobOptions {
  count: number;
  keys: number;
  windowMs: number;
  outDir: string;
  baseDir: string;
  backend: StateBackendKind;
  checkpointInterval: number | null;
}

export const GENERATOR = { seed: 7, keys: 100, outOfOrderness: 100, step: 1 };

export function benchJob(o: BenchJobOptions): NormalizedJob {
  const doc = {
    format: 'weir.job/v1',
    name: `bench-${o.backend}`,
    settings: {
      parallelism: 1,
      stateBackend: o.backend,
      ...(o.checkpointInterval
        ? {
            checkpointing: { interval: o.checkpointInterval, dir: 'checkpoints', incremental: o.backend === 'rocksdb' },
          }
        : {}),
    },
    nodes: [
      {
        id: 'gen',
        type: 'source.generator',
        config: {
          ...GENERATOR,
          keys: o.keys,
          count: o.count,
          eventTime: { field: 'ts', maxOutOfOrderness: GENERATOR.outOfOrderness },
        },
      },
      {
        id: 'w',
        type: 'window',
        config: {
          keyBy: 'key',
          window: { kind: 'tumbling', size: o.windowMs },
          aggregates: 'COUNT(*) AS n, SUM(value) AS total',
        },
      },
      { id: 'out', type: 'sink.file', config: { path: o.outDir, format: 'jsonl' } },
    ],
    edges: [
      { from: 'gen', to: 'w' },
      { from: 'w', to: 'out' },
    ],
  };
  const v = validateJob(doc, { baseDir: o.baseDir });
  if (!v.ok) throw new Error(v.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return v.job;
}

/** `taskCpuS`: CPU seconds of the task process from `running` to `finishing` (NaN without /proc). */
export async function runEngine(job: NormalizedJob): Promise<{ ms: number; checkpoints: number; taskCpuS: number }> {
  let started = 0;
  let ended = 0;
  let checkpoints = 0;
  let cpu0 = NaN;
  let cpu1 = NaN;
  const handle = await startJob({
    job,
    onEvent: (e) => {
      if (e.type === 'job.status' && e.status === 'running' && !started) {
        started = performance.now();
        cpu0 = childCpu(sampleCpu());
      }
      // 'finishing': every record processed and committed; only process teardown remains.
      if (e.type === 'job.status' && e.status === 'finishing') {
        ended = performance.now();
        cpu1 = childCpu(sampleCpu());
      }
      if (e.type === 'checkpoint' && e.stats.status === 'completed') checkpoints++;
    },
  });
  const r = await handle.done;
  if (r.status !== 'finished') throw new Error(`bench job ${r.status}: ${r.cause}`);
  return { ms: (ended || performance.now()) - started, checkpoints, taskCpuS: cpu1 - cpu0 };
}
