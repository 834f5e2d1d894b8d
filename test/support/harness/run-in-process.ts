/**
 * Runs a job document to its end in this process (inProcessLauncher) and returns what its file
 * sinks committed, per sink node id, as parsed JSON rows (CSV sinks as objects by header).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateJob } from '../../../engine/graph/validate.ts';
import { startJob } from '../../../engine/runtime/job/job-runner.ts';
import type { JobResult } from '../../../engine/runtime/job/api.ts';
import { inProcessLauncher } from './in-process-launcher.ts';

export interface InProcessRun {
  result: JobResult;
  /** Committed rows of each `sink.file` node, in file-name order, lines in file order. */
  sinks: Record<string, Array<Record<string, unknown>>>;
}

export async function runJobInProcess(doc: unknown, baseDir: string): Promise<InProcessRun> {
  const v = validateJob(doc, { baseDir });
  if (!v.ok) throw new Error(`invalid job: ${v.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  const handle = await startJob({ job: v.job, launcher: inProcessLauncher(), metricsInterval: 60_000 });
  const result = await handle.done;
  const sinks: InProcessRun['sinks'] = {};
  for (const n of v.job.nodes) {
    if (n.type !== 'sink.file') continue;
    sinks[n.id] = readSinkFolder(resolve(baseDir, n.config.path), n.config.format);
  }
  return { result, sinks };
}

function readSinkFolder(dir: string, format: string): Array<Record<string, unknown>> {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const name of names) {
    const p = join(dir, name);
    if (!statSync(p).isFile()) continue;
    const lines = readFileSync(p, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (format === 'csv') {
      const header = lines.shift()?.split(',') ?? [];
      for (const l of lines) rows.push(Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
    } else {
      for (const l of lines) rows.push(JSON.parse(l) as Record<string, unknown>);
    }
  }
  return rows;
}
