/**
 * Round trips (issue 12): export -> import -> export gives the same script for every example, every
 * export test job and every parity case, and import -> run gives the rows the original job gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';
import { runJobInProcess } from '../../../support/harness/run-in-process.ts';
import { caseJob, inputLines, loadCorpus } from '../../../flink-parity/corpus.ts';
import { readRecording } from '../../../flink-parity/recording.ts';
import { canonical, normalizeRows } from '../../../flink-parity/rows.ts';
import { DATA_DIR, everything, ordersPerUser, plainJobs } from '../../export/flink-sql/jobs.ts';

const EXAMPLES = fileURLToPath(new URL('../../../../examples/', import.meta.url));

/** Exports `doc`, imports the script, exports the import; returns both scripts and the import. */
function roundTrip(doc: unknown, baseDir: string) {
  const v = validateJob(doc, { baseDir });
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  const first = exportFlinkSql(v.job).text;
  const imported = importFlinkSql(first, { baseDir });
  const v2 = validateJob(imported.job, { baseDir });
  assert.ok(v2.ok, `imported job invalid: ${JSON.stringify(!v2.ok && v2.problems)}`);
  const second = exportFlinkSql(v2.job).text;
  return { first, second, imported };
}

describe('export -> import -> export is identical', () => {
  // Example folders (examples/nexmark holds queries on the nexmark connector, which import does not read).
  for (const ex of readdirSync(EXAMPLES).filter((e) => existsSync(join(EXAMPLES, e, 'job.weir.json')))) {
    it(`example ${ex}`, () => {
      const dir = join(EXAMPLES, ex);
      const { first, second, imported } = roundTrip(JSON.parse(readFileSync(join(dir, 'job.weir.json'), 'utf8')), dir);
      assert.equal(second, first);
      assert.deepEqual(imported.problems, []);
      // Laid out: every node has a position, sources in the first column.
      for (const n of imported.job.nodes) assert.ok(n.position, n.id);
      assert.ok(imported.job.nodes.filter((n) => n.type.startsWith('source.')).every((n) => n.position!.x === 0));
    });
  }
  const jobs: Record<string, unknown> = { everything, ordersPerUser, ...plainJobs };
  for (const [name, doc] of Object.entries(jobs)) {
    it(`export test job ${name}`, () => {
      const { first, second } = roundTrip({ format: 'weir.job/v1', ...(doc as object) }, DATA_DIR);
      if (name === 'memory-unbounded-preview') {
        // Known difference: `*, ..., LOWER(key)` has no alias, Weir and Flink call it EXPR$2; the
        // script spells `*` out, so EXPR$2 becomes an explicit alias at another position and the
        // re-export no longer warns about the missing alias. Everything else is identical.
        const strip = (t: string) =>
          t
            .replace(/^--   nodes\[1\]\.config\.select: .*has no alias.*\n/m, '')
            .replace(/Warnings \(\d+\)/, 'Warnings');
        assert.notEqual(second, first);
        assert.equal(strip(second), strip(first));
        return;
      }
      assert.equal(second, first);
    });
  }
  it('every parity case, TRY_CAST and CHAR_LENGTH included (the importer masks what its grammar lacks)', () => {
    let identical = 0;
    for (const c of loadCorpus()) {
      const dir = mkdtempSync(join(tmpdir(), 'weir-rt-'));
      try {
        writeFileSync(join(dir, 'in.jsonl'), inputLines(c));
        const v = validateJob(caseJob(c), { baseDir: dir });
        assert.ok(v.ok);
        const first = exportFlinkSql(v.job).text;
        const imported = importFlinkSql(first, { baseDir: dir });
        const v2 = validateJob(imported.job, { baseDir: dir });
        assert.ok(v2.ok, `${c.id}: ${JSON.stringify(!v2.ok && v2.problems)}`);
        assert.equal(exportFlinkSql(v2.job).text, first, c.id);
        identical++;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    assert.equal(identical, loadCorpus().length, 'every parity case round-trips');
  });
});

describe('import -> run gives the rows of the original job', () => {
  it("every parity case with rows: the imported job produces Flink's rows", async () => {
    for (const c of loadCorpus()) {
      const flinkRows = readRecording(c)?.rows;
      if (flinkRows === undefined) continue;
      const dir = mkdtempSync(join(tmpdir(), 'weir-rt-run-'));
      try {
        writeFileSync(join(dir, 'in.jsonl'), inputLines(c));
        const v = validateJob(caseJob(c), { baseDir: dir });
        assert.ok(v.ok);
        const imported = importFlinkSql(exportFlinkSql(v.job).text, { baseDir: dir });
        const run = await runJobInProcess(imported.job, dir);
        assert.equal(run.result.status, 'finished', `${c.id}: ${run.result.cause}`);
        assert.deepEqual(
          normalizeRows(run.sinks.out, 'jsonl', { times: true }),
          normalizeRows(flinkRows, 'jsonl', { times: true }),
          c.id,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
  for (const ex of [
    'orders-per-user',
    'union-late',
    'customers-orders-left-join',
    'impressions-clicks-window',
    'orders-payments-join',
    'sales-per-category',
    'top-bids',
  ]) {
    it(`example ${ex}: the original and the imported job commit the same rows`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `weir-rt-${ex}-`));
      try {
        cpSync(join(EXAMPLES, ex), join(dir, 'a'), { recursive: true });
        cpSync(join(EXAMPLES, ex), join(dir, 'b'), { recursive: true });
        const original = JSON.parse(readFileSync(join(dir, 'a', 'job.weir.json'), 'utf8'));
        const v = validateJob(original, { baseDir: join(dir, 'b') });
        assert.ok(v.ok);
        const imported = importFlinkSql(exportFlinkSql(v.job).text, { baseDir: join(dir, 'b') });
        const [ra, rb] = [
          await runJobInProcess(original, join(dir, 'a')),
          await runJobInProcess(imported.job, join(dir, 'b')),
        ];
        assert.equal(ra.result.status, 'finished', ra.result.cause);
        assert.equal(rb.result.status, 'finished', rb.result.cause);
        const sinks = Object.keys(ra.sinks);
        assert.ok(sinks.length > 0 && sinks.some((s) => ra.sinks[s].length > 0), 'the example writes rows');
        for (const s of sinks) assert.deepEqual(canonical(rb.sinks[s] ?? []), canonical(ra.sinks[s]), s);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
