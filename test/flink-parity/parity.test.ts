/**
 * Runs every case of the Flink parity corpus (cases/*.json, see corpus.ts): Weir's rows must equal
 * the rows recorded from real Flink (recorded/, `npm run parity:record`; multisets, window times
 * compared as instants), a case Flink failed must fail in Weir with the cited error, and the
 * exported Flink SQL of every case must pass the Flink grammar. No JVM here: jobs run on the real
 * task runtime in this process (test/support/harness/in-process-launcher.ts), and the recordings
 * are held to real Flink by test/flink-runner/parity-on-flink-*.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateJob } from '../../engine/graph/validate.ts';
import { exportFlinkSql } from '../../engine/export/flink-sql/index.ts';
import { runJobInProcess } from '../support/harness/run-in-process.ts';
import { describeSyntaxErrors, flinkSyntaxErrors } from '../engine/export/flink-sql/grammar.ts';
import { caseJob, inputLines, loadCorpus } from './corpus.ts';
import { readRecording, staleRecording } from './recording.ts';
import { normalizeRows } from './rows.ts';

const corpus = loadCorpus();

describe('Flink parity corpus', () => {
  it('has at least 40 cases, each cited, each recorded from Flink', () => {
    assert.ok(corpus.length >= 40, `${corpus.length} cases`);
    for (const c of corpus) {
      assert.ok(
        /^https:\/\/nightlies\.apache\.org\/flink\/|^flink-[a-z-]+\//.test(c.source),
        `${c.id}: cite a Flink doc URL or source file`,
      );
      assert.ok(
        !('expected' in c),
        `${c.id}: rows are not written by hand: delete 'expected' and run npm run parity:record`,
      );
      const rec = readRecording(c);
      assert.equal(staleRecording(c, rec), undefined);
      assert.equal(
        rec!.error !== undefined,
        c.expectFailure !== undefined,
        `${c.id}: Flink ${rec!.error !== undefined ? `failed (${rec!.error})` : 'finished'}; expectFailure must say the same`,
      );
    }
    const kinds = new Set(
      corpus.flatMap((c) =>
        c.nodes.map((n) => (n.type === 'window' ? `window:${(n.config.window as { kind: string }).kind}` : n.type)),
      ),
    );
    for (const k of ['filter', 'map', 'window:tumbling', 'window:sliding', 'window:session'])
      assert.ok(kinds.has(k), `covers ${k}`);
  });

  for (const c of corpus) {
    it(`${c.id} ${c.name}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'weir-parity-'));
      try {
        writeFileSync(join(dir, 'in.jsonl'), inputLines(c));
        const doc = caseJob(c);
        const rec = readRecording(c);
        assert.equal(staleRecording(c, rec), undefined);
        const run = await runJobInProcess(doc, dir);
        if (c.expectFailure !== undefined) {
          assert.equal(
            run.result.status,
            'failed',
            `${c.id}: Flink fails this job; Weir finished with ${JSON.stringify(run.sinks.out)}`,
          );
          assert.match(run.result.cause ?? '', new RegExp(c.expectFailure));
        } else {
          assert.equal(run.result.status, 'finished', run.result.cause);
          assert.deepEqual(
            normalizeRows(run.sinks.out, 'jsonl', { times: true }),
            normalizeRows(rec!.rows ?? [], 'jsonl', { times: true }),
            `Weir's rows vs Flink ${rec!.flinkVersion}'s`,
          );
        }
        const v = validateJob(doc, { baseDir: dir });
        assert.ok(v.ok);
        const { text } = exportFlinkSql(v.job);
        const errors = flinkSyntaxErrors(text);
        if (c.grammarGap) {
          const lines = text.split('\n');
          for (const e of errors) assert.ok(lines[e.line - 1].includes(c.grammarGap), describeSyntaxErrors(text, [e]));
        } else {
          assert.deepEqual(errors, [], describeSyntaxErrors(text, errors));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
