/**
 * `weir run` starts a job that has warnings, as validate allows, but says them first on stderr
 * (where validate says them too), unless `--quiet`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommitted, runWeir, tempDir, writeJob } from '../../support/run-helpers.ts';

const UNCONNECTED = "the output of 'unused' is not connected";

function jobWithAnUnconnectedNode() {
  return {
    format: 'weir.job/v1',
    name: 'warned',
    nodes: [
      { id: 'src', type: 'source.file', config: { path: 'in.jsonl', format: 'jsonl', columns: { id: 'BIGINT' } } },
      { id: 'unused', type: 'filter', config: { where: 'id > 1' } },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'src', to: 'out' },
      { from: 'src', to: 'unused' },
    ],
  };
}

test(
  'weir run prints the job’s warnings before it runs, and --quiet leaves them out',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('run-warnings');
    try {
      writeFileSync(join(dir, 'in.jsonl'), '{"id":1}\n{"id":2}\n');
      const file = writeJob(dir, jobWithAnUnconnectedNode());
      const loud = await runWeir(['run', file], dir);
      assert.equal(loud.code, 0, loud.stderr);
      assert.match(loud.stderr, new RegExp(`nodes\\[1\\].*${UNCONNECTED}`));
      assert.equal(readCommitted(join(dir, 'out')).length, 2);
      const quiet = await runWeir(['run', file, '--quiet', '--clear-output'], dir);
      assert.equal(quiet.code, 0, quiet.stderr);
      assert.doesNotMatch(quiet.stderr, new RegExp(UNCONNECTED));
    } finally {
      cleanup();
    }
  },
);
