/**
 * Flink SQL scripts timed on Weir's Flink runner (engine/flink/runner-process.ts): one JVM, one
 * local MiniCluster, the scripts one after another. Times are taken here, as each event line of
 * the runner arrives:
 *
 * - `startMs`: from spawning `java` to the runner's `started` (JVM start and MiniCluster up);
 * - per script, `scriptMs`: from its `script` to its `scriptEnd` event (planning, submission,
 *   deployment, the run, the end): with `startMs`, what a whole process of this one script costs;
 * - per script, `steadyMs`: from the last subtask entering RUNNING to the last one FINISHED, by
 *   the timestamps Flink's JobManager records per subtask (the runner's `finished` event,
 *   `runningMs`), the Flink counterpart of Weir's `running` -> `finishing` (bench/nexmark-run.ts).
 *   Without them (an older runner jar), from the first progress poll that shows every vertex
 *   RUNNING to the first that shows the job FINISHED: polls 200 ms apart, so only roughly.
 *
 * One JVM for many scripts: a JVM per script would add ~10-20 s of start-up per query on a loaded
 * 2-core machine. The price is that later scripts find a warm JVM (the planner's classes loaded
 * and compiled), which favours Flink's later figures over a cold process of their own.
 */
import { runnerAvailability, startFlinkRunner, type FlinkLine } from '../engine/flink/runner-process.ts';

export interface FlinkScriptTiming {
  ok: boolean;
  error?: string;
  scriptMs: number;
  /** Null when neither the timestamps nor the polls saw the job both running and finished. */
  steadyMs: number | null;
  /** How steadyMs was measured. */
  steadyFrom?: 'timestamps' | 'polls';
}

export interface FlinkScriptsRun {
  flinkVersion: string;
  startMs: number;
  scripts: FlinkScriptTiming[];
}

export async function runFlinkScripts(
  line: FlinkLine,
  scripts: string[],
  log: (line: string) => void = () => {},
): Promise<FlinkScriptsRun> {
  const available = runnerAvailability(line);
  if (!available.ok) throw new Error(available.reason);
  const t0 = performance.now();
  let flinkVersion = line as string;
  let startMs = NaN;
  const timings: FlinkScriptTiming[] = scripts.map(() => ({ ok: false, scriptMs: NaN, steadyMs: null }));
  let current = -1;
  let scriptAt = 0;
  let runningAt: number | null = null;
  let finishedAt: number | null = null;
  let exactRunningMs: number | null = null;
  const handle = startFlinkRunner(
    {
      line,
      scripts,
      settings: { 'parallelism.default': '1' },
      onEvent: (e) => {
        const now = performance.now();
        if (e.event === 'started') {
          startMs = now - t0;
          flinkVersion = e.flinkVersion;
        } else if (e.event === 'script') {
          current = e.index;
          scriptAt = now;
          runningAt = finishedAt = exactRunningMs = null;
        } else if (e.event === 'progress' || e.event === 'finished') {
          if (e.event === 'finished' && typeof e.runningMs === 'number') exactRunningMs = e.runningMs;
          const allRunning = e.vertices.length > 0 && e.vertices.every((v) => v.status === 'RUNNING');
          if (runningAt === null && allRunning) runningAt = now;
          if (finishedAt === null && e.state === 'FINISHED') finishedAt = now;
        } else if (e.event === 'scriptEnd' && current >= 0) {
          const polled = runningAt !== null && finishedAt !== null ? finishedAt - runningAt : null;
          timings[current] = {
            ok: e.ok,
            ...(e.error ? { error: e.error } : {}),
            scriptMs: now - scriptAt,
            steadyMs: exactRunningMs ?? polled,
            ...(exactRunningMs !== null
              ? { steadyFrom: 'timestamps' }
              : polled !== null
                ? { steadyFrom: 'polls' }
                : {}),
          };
          log(
            `  flink ${scripts[current]}: ${e.ok ? 'ok' : `failed: ${e.error}`} in ${((now - scriptAt) / 1000).toFixed(1)} s`,
          );
        }
      },
    },
    available.classpath,
  );
  const r = await handle.result;
  if (Number.isNaN(startMs)) throw new Error(`the Flink runner did not start: ${r.error ?? 'no reason given'}`);
  return { flinkVersion, startMs, scripts: timings };
}
