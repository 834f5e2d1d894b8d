/**
 * Parity measured on real Flink: every example Flink can run with file connectors and every case
 * of the parity corpus is exported with Weir's exporter for a Flink line and run on it (one runner
 * JVM, one MiniCluster, the scripts one after another), and its committed rows are compared with
 * Weir's own run of the same job (multisets; changelogs folded into tables; see parity-cases.ts).
 * parity-on-flink-<line>.test.ts call `parityOnFlink` with the line's known differences.
 *
 * Every difference is listed in `knownDifferences` with its cause (docs/sql-semantics.md carries
 * the measured rows); a listed case that starts to agree fails too, so the list stays true.
 * The measured rows of every case are written to test/artifacts/flink-parity-<line>.json.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFlinkRunner, type FlinkLine, type FlinkRunResult } from '../../engine/flink/runner-process.ts';
import { runJobInProcess, type InProcessRun } from '../support/harness/run-in-process.ts';
import { ROOT, buildRunner, flinkSkipReason } from './runner-support.ts';
import { corpusJobs, csvHeader, exampleJobs, readFlinkSink, sinkDir, type ParityJob } from './parity-cases.ts';
import { normalizeRows } from '../flink-parity/rows.ts';
import { exportTestJobs } from './export-jobs.ts';

interface Outcome {
  id: string;
  title: string;
  verdict: 'same rows' | 'different rows' | 'both fail' | 'weir fails' | 'flink fails';
  flinkError?: string;
  weirError?: string;
  /** How long Flink took for the script, from its start to its end (ms). */
  flinkMs?: number;
  sinks?: Record<string, { weir: string[]; flink: string[] }>;
}

/**
 * A corpus case's recording (what `npm run parity:record` saw Flink do) must still be what this
 * Flink does: else the recording is stale and the corpus test would hold Weir to old rows.
 */
function checkRecording(job: ParityJob, end: { ok: boolean; error?: string }, line: FlinkLine): void {
  const rec = job.recording;
  assert.ok(rec, `${job.id} has no recording: run npm run parity:record`);
  const stale = `the recording made on Flink ${rec.flinkVersion} is stale: run npm run parity:record`;
  if (!end.ok) {
    assert.ok(rec.error !== undefined, `Flink ${line} fails ${job.id} (${end.error}) but ${stale}`);
    return;
  }
  assert.ok(rec.rows, `Flink ${line} finishes ${job.id} but ${stale}`);
  const [sink] = job.sinks;
  assert.deepEqual(
    normalizeRows(readFlinkSink(sinkDir(job.flinkDir, sink), sink.format, []), sink.format, { times: true }),
    normalizeRows(rec.rows, sink.format, { times: true }),
    `${job.id}: Flink ${line}'s rows vs ${stale}`,
  );
}

/** The parity suite for one Flink line; `knownDifferences`: the cases whose rows differ on it, each with why. */
export function parityOnFlink(line: FlinkLine, knownDifferences: Record<string, string>): void {
  const skip = flinkSkipReason();
  describe(`parity on real Flink ${line}`, { skip }, () => {
    const root = mkdtempSync(join(tmpdir(), 'weir-flink-parity-'));
    const jobs: ParityJob[] = skip
      ? []
      : [...exampleJobs(root, line), ...exportTestJobs(root, line), ...corpusJobs(root, line)];
    const weirRuns = new Map<string, InProcessRun | Error>();
    const scriptEnds = new Map<string, { ok: boolean; error?: string; ms: number }>();
    const outcomes: Outcome[] = [];
    let flink: FlinkRunResult;

    before(async () => {
      const classpath = buildRunner(line);
      // Flink works through its scripts in its own JVM while Weir runs the same jobs here.
      let scriptStart = 0;
      const handle = startFlinkRunner(
        {
          line,
          scripts: jobs.map((j) => j.script),
          jobTimeoutSeconds: 120,
          onEvent: (e) => {
            if (e.event === 'script') scriptStart = Date.now();
            if (e.event === 'scriptEnd')
              scriptEnds.set(e.file, { ok: e.ok, error: e.error, ms: Date.now() - scriptStart });
          },
        },
        classpath,
      );
      for (const j of jobs) {
        weirRuns.set(
          j.id,
          await runJobInProcess(j.doc, j.weirDir).catch((e: unknown) =>
            e instanceof Error ? e : new Error(String(e)),
          ),
        );
      }
      flink = await handle.result;
    });

    after(() => {
      const dir = join(ROOT, 'test', 'artifacts');
      mkdirSync(dir, { recursive: true });
      const same = outcomes.filter((o) => o.verdict === 'same rows' || o.verdict === 'both fail').length;
      writeFileSync(
        join(dir, `flink-parity-${line}.json`),
        JSON.stringify({ flink: line, cases: outcomes.length, agree: same, outcomes }, null, 2),
      );
      rmSync(root, { recursive: true, force: true });
    });

    it('runs every script to its end in one Flink JVM', () => {
      assert.equal(scriptEnds.size, jobs.length, flink.error);
    });

    for (const job of jobs) {
      it(`${job.id} ${job.title}`, () => {
        const weir = weirRuns.get(job.id)!;
        const end = scriptEnds.get(job.script) ?? { ok: false, error: 'the runner never reached this script', ms: 0 };
        const outcome: Outcome = { id: job.id, title: job.title, verdict: 'same rows', flinkMs: end.ms };
        outcomes.push(outcome);
        const weirFailed = weir instanceof Error || weir.result.status !== 'finished';
        if (weirFailed)
          outcome.weirError = weir instanceof Error ? weir.message : (weir.result.cause ?? weir.result.status);
        if (!end.ok) outcome.flinkError = end.error;
        // A case recorded on the other Flink line and listed as differing on this one (a function new
        // in 2.0, which 1.20 refuses) has no recording of this line to be stale against.
        const otherLine = job.recording && !job.recording.flinkVersion.startsWith(line === '1.20' ? '1.20' : '2.');
        if (job.id.startsWith('corpus:') && !(otherLine && knownDifferences[job.id])) checkRecording(job, end, line);
        if (job.expectFailure !== undefined || weirFailed || !end.ok) {
          outcome.verdict = weirFailed && !end.ok ? 'both fail' : weirFailed ? 'weir fails' : 'flink fails';
          const known = knownDifferences[job.id];
          if (known)
            assert.notEqual(
              outcome.verdict,
              'both fail',
              `${job.id} is listed as differing (${known}) but both fail now`,
            );
          else
            assert.equal(
              outcome.verdict,
              'both fail',
              `Weir: ${outcome.weirError ?? 'finished'}; Flink: ${end.error ?? 'finished'}`,
            );
          return;
        }
        const sinks: Outcome['sinks'] = {};
        for (const sink of job.sinks) {
          const weirRows = weir.sinks[sink.id] ?? [];
          const flinkDir = sinkDir(job.flinkDir, sink);
          const flinkRows = readFlinkSink(flinkDir, sink.format, csvHeader(sinkDir(job.weirDir, sink)));
          // Timestamps as instants: window bounds are TIMESTAMP(3) in the script, which Flink writes
          // as `2024-01-15 09:00:10` and Weir as ISO-8601 text.
          sinks[sink.id] = {
            weir: normalizeRows(weirRows, sink.format, { times: true }),
            flink: normalizeRows(flinkRows, sink.format === 'changelog-json' ? 'debezium-json' : sink.format, {
              times: true,
            }),
          };
        }
        const equal = Object.values(sinks).every((s) => JSON.stringify(s.weir) === JSON.stringify(s.flink));
        outcome.verdict = equal ? 'same rows' : 'different rows';
        if (!equal) outcome.sinks = sinks;
        const known = knownDifferences[job.id];
        if (known) assert.ok(!equal, `${job.id} is listed as differing (${known}) but gives the same rows now`);
        else
          for (const [id, s] of Object.entries(sinks))
            assert.deepEqual(s.flink, s.weir, `sink '${id}': Flink's rows vs Weir's`);
      });
    }
  });
}
