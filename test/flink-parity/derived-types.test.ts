// Export and the planner use the same types (issue 22), for every parity case and export test job
// (test/engine/export/flink-sql/derived-types.ts says how).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { JobDocument } from '../../engine/graph/types.ts';
import { compareSinkTypes as compare, type Tally } from '../engine/export/flink-sql/derived-types.ts';
import { DATA_DIR, everything, ordersPerUser, plainJobs } from '../engine/export/flink-sql/jobs.ts';
import { caseJob, inputLines, loadCorpus } from './corpus.ts';

test('every parity case and export test job: each sink table declares the planner types of its input', () => {
  const tally: Tally = { compared: 0, jobs: 0, differing: [] };
  const tmp = mkdtempSync(join(tmpdir(), 'weir-derived-types-'));
  try {
    for (const c of loadCorpus()) {
      const dir = mkdtempSync(join(tmp, 'case-'));
      writeFileSync(join(dir, 'in.jsonl'), inputLines(c));
      compare(c.id, caseJob(c) as unknown as JobDocument, dir, tally);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const [name, j] of Object.entries({ ...plainJobs, everything, ordersPerUser }))
    compare(name, { format: 'weir.job/v1', ...j }, DATA_DIR, tally);
  assert.ok(tally.compared > 300, `${tally.compared} columns compared`);
  assert.deepEqual(tally.differing, []);
});
