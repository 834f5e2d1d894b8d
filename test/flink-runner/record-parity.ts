/**
 * `npm run parity:record [-- --flink-version 1.20|2.x] [--only windows.json]`: runs every case of
 * the parity corpus (test/flink-parity/cases/), exported for that Flink line, on real Flink through
 * the runner (one JVM for all) and writes what Flink did with each (its sink's rows, or its error)
 * to test/flink-parity/recorded/ with the exact Flink version (see test/flink-parity/recording.ts).
 * The corpus test then holds Weir to those rows without a JVM, and the parity tests on Flink
 * (parity-on-flink-*.test.ts) fail when Flink's rows no longer match a recording.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFlinkRunner, type FlinkLine } from '../../engine/flink/runner-process.ts';
import { loadCorpus } from '../flink-parity/corpus.ts';
import { recordingOf, recordingPath, writeRecording } from '../flink-parity/recording.ts';
import { corpusJobs, readFlinkSink, sinkDir } from './parity-cases.ts';
import { buildRunner, flinkSkipReason } from './runner-support.ts';

const { values } = parseArgs({
  options: { 'flink-version': { type: 'string', default: '1.20' }, only: { type: 'string' } },
});
const line = values['flink-version'] as FlinkLine;
if (line !== '1.20' && line !== '2.x') {
  console.error(`parity:record: unknown --flink-version '${line}' (allowed: 1.20, 2.x)`);
  process.exit(1);
}
const skip = flinkSkipReason();
if (skip) {
  console.error(`parity:record: ${skip}`);
  process.exit(1);
}

const root = mkdtempSync(join(tmpdir(), 'weir-parity-record-'));
try {
  const classpath = buildRunner(line);
  const corpus = loadCorpus();
  const jobs = corpusJobs(root, line).filter((j) => !values.only || j.id.startsWith(`corpus:${values.only}#`));
  const ends = new Map<string, { ok: boolean; error?: string }>();
  let flinkVersion = '';
  const run = await startFlinkRunner(
    {
      line,
      scripts: jobs.map((j) => j.script),
      jobTimeoutSeconds: 120,
      onEvent: (e) => {
        if (e.event === 'started') flinkVersion = e.flinkVersion;
        if (e.event === 'scriptEnd') ends.set(e.file, e);
      },
    },
    classpath,
  ).result;
  let written = 0;
  for (const job of jobs) {
    const c = corpus.find((x) => `corpus:${x.id}` === job.id)!;
    const end = ends.get(job.script);
    if (!end) {
      console.error(`${c.id}: Flink never reached its script (${run.error ?? 'the runner ended early'}); not recorded`);
      continue;
    }
    const [sink] = job.sinks;
    const rows = end.ok ? readFlinkSink(sinkDir(job.flinkDir, sink), sink.format, []) : [];
    const outcome = end.ok ? { rows, format: sink.format } : { error: end.error ?? 'failed' };
    writeRecording(c, recordingOf(c, flinkVersion, outcome));
    written++;
    console.log(`${c.id}: ${end.ok ? `${rows.length} rows` : 'fails'} -> ${recordingPath(c)}`);
  }
  console.log(`recorded ${written} of ${jobs.length} cases on Flink ${flinkVersion}`);
  if (written < jobs.length) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
