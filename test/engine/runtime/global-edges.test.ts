// Edges that send every record to subtask 0 (into a window without keyBy, a changelog into more
// subtasks) still reach every downstream subtask with barriers, watermarks and the end of input:
// at parallelism 2 such a job completes checkpoints and finishes, with each window's result once.
// (Before, the other subtasks had no input channel at all: checkpoints never completed and a
// bounded job never ended.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runJobInProcess } from '../../support/harness/run-in-process.ts';
import { tempDir } from '../../support/run-helpers.ts';

const T0 = 1_700_000_000_000;

test(
  'a window without keyBy at parallelism 2: checkpoints complete, the job ends, each window once',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('global-window');
    try {
      const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ v: i, ts: T0 + i * 10 }));
      writeFileSync(join(dir, 'in.jsonl'), lines.join('\n') + '\n');
      const job = {
        format: 'weir.job/v1',
        name: 'global-window',
        settings: { parallelism: 2, stateBackend: 'fs', checkpointing: { interval: '50ms', dir: 'checkpoints' } },
        nodes: [
          { id: 'src', type: 'source.file', config: { path: 'in.jsonl', format: 'jsonl', eventTime: { field: 'ts' } } },
          {
            id: 'w',
            type: 'window',
            config: { window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n, SUM(v) AS total' },
          },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
        ],
        edges: [
          { from: 'src', to: 'w' },
          { from: 'w', to: 'out' },
        ],
      };
      const run = await runJobInProcess(job, dir);
      assert.equal(run.result.status, 'finished');
      const chks = readdirSync(join(dir, 'checkpoints'), { recursive: true })
        .map(String)
        .filter((n) => /chk-\d+$/.test(n));
      assert.ok(chks.length >= 1, `a completed checkpoint: ${chks}`);
      const rows = run.sinks.out;
      assert.equal(rows.length, 50, 'one row per 1 s window of the 50 s input');
      assert.equal(
        rows.reduce((a, r) => a + Number(r.n), 0),
        5000,
      );
    } finally {
      cleanup();
    }
  },
);
