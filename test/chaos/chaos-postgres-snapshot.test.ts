/**
 * Chaos with a PostgreSQL snapshot source: `weir run` SIGKILLed a random moment after a
 * checkpoint, resumed from the last key read; every row of the table reaches the sink exactly once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startPgCluster } from '../support/postgres-cluster.ts';
import { canonical, diffMultisets, readCommitted, tempDir, writeJob } from '../support/run-helpers.ts';
import { committedFraction, killWholeProcessLoop } from './chaos-runner.ts';

test(
  'snapshot: weir run killed with SIGKILL and resumed from the last key: every row exactly once',
  { timeout: 180_000 },
  async () => {
    const pg = await startPgCluster();
    const { dir, cleanup } = tempDir('pg-snapshot-chaos');
    try {
      await pg.query('CREATE TABLE big (id bigint PRIMARY KEY, v int)');
      await pg.query('INSERT INTO big SELECT i, i % 97 FROM generate_series(1, 200000) AS i');
      const job = writeJob(dir, {
        format: 'weir.job/v1',
        name: 'pg-snapshot',
        settings: { parallelism: 1, stateBackend: 'fs', checkpointing: { interval: '50ms', dir: 'checkpoints' } },
        nodes: [
          { id: 'src', type: 'source.postgres', config: { url: pg.url, table: 'big', mode: 'snapshot' } },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
        ],
        edges: [{ from: 'src', to: 'out' }],
      });
      const r = await killWholeProcessLoop(dir, job, 3, 11, {
        minMs: 0,
        spanMs: 150,
        afterCheckpoint: true,
        progress: committedFraction(join(dir, 'out'), 200_000),
      });
      assert.equal(r.final.code, 0, r.final.stderr);
      assert.ok(r.kills >= 2, `only ${r.kills} kills landed before the end`);
      const expected = Array.from({ length: 200000 }, (_, i) => canonical({ id: i + 1, v: (i + 1) % 97 }));
      const { missing, extra } = diffMultisets(
        readCommitted(join(dir, 'out')).map((l) => canonical(l)),
        expected,
      );
      assert.deepEqual([missing.length, extra.length, missing.slice(0, 2), extra.slice(0, 2)], [0, 0, [], []]);
    } finally {
      await pg.stop();
      cleanup();
    }
  },
);
