/**
 * Progress of `weir flink run` on stderr, from the runner's events: the cluster, each job's id,
 * its state with records in/out per vertex (at most one line a second while it runs) and
 * checkpoints, every failure Flink reports (restarts included), and each job's end.
 */
import type { FlinkRunnerEvent, FlinkVertex } from '../flink/runner-process.ts';
import type { CliIO } from './output.ts';

const INTERVAL_MS = 1000;

function vertexLine(v: FlinkVertex): string {
  const name = v.name.length > 70 ? `${v.name.slice(0, 67)}...` : v.name;
  return `  ${name} (x${v.parallelism}): in ${v.recordsIn}, out ${v.recordsOut}`;
}

export class FlinkProgressPrinter {
  private lastProgress = 0;

  constructor(
    private readonly io: CliIO,
    private readonly quiet: boolean,
  ) {}

  onEvent(e: FlinkRunnerEvent): void {
    if (e.event === 'stdout') this.io.out(e.line); // what a 'print' sink writes
    if (e.event === 'row') this.io.out(`${e.kind} ${e.values.map((v) => v ?? 'NULL').join(', ')}`);
    if (e.event === 'failure' && !e.final) this.io.err(`weir flink run: Flink reports a failure: ${e.message}`);
    if (this.quiet) return;
    const say = (text: string) => this.io.err(`weir flink run: ${text}`);
    switch (e.event) {
      case 'started':
        say(`Flink ${e.flinkVersion} on a local MiniCluster (${e.slots} slot(s)), REST ${e.restUrl}`);
        break;
      case 'job':
        say(`job ${e.jobId} submitted (the statement at line ${e.line})`);
        break;
      case 'progress': {
        const now = Date.now();
        if (now - this.lastProgress < INTERVAL_MS) break;
        this.lastProgress = now;
        const out = e.vertices.reduce((s, v) => s + v.recordsOut, 0);
        say(
          `job ${e.jobId} ${e.state}: ${e.vertices.length} vertices, ${out} records out, ${e.checkpoints} checkpoint(s)`,
        );
        break;
      }
      case 'finished':
        say(
          `job ${e.jobId} ${e.state} in ${(e.durationMs / 1000).toFixed(1)} s, ${e.checkpoints} checkpoint(s) completed`,
        );
        for (const v of e.vertices) this.io.err(vertexLine(v));
        break;
    }
  }
}
