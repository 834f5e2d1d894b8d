/**
 * Regression: a restored checkpoint lists its pending sink transactions by folder name. A second
 * process resumed from it, and killed before its own next checkpoint, must not leave a new open
 * transaction under one of those names: the third process's recovery would commit that half-written
 * file over the real one (lost records). Found by killing `weir run` at random moments.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  readCommitted,
  runWeir,
  startWeir,
  startWeirWithFaults,
  tempDir,
  writeJob,
} from '../../support/run-helpers.ts';

function job(interval: string) {
  return {
    format: 'weir.job/v1',
    name: 'txn-reuse',
    settings: { stateBackend: 'fs', checkpointing: { interval, dir: 'ck' } },
    nodes: [
      { id: 'g', type: 'source.generator', config: { seed: 9, count: 4000, rate: 2000, keys: 3 } },
      { id: 'o', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [{ from: 'g', to: 'o' }],
  };
}

async function until(what: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

test(
  'a resumed run killed before its next checkpoint never spoils what the checkpoint committed',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('txn-reuse');
    try {
      const out = join(dir, 'out');
      const jobFile = writeJob(dir, job('500ms'));
      // A: killed right after checkpoint 1 is stored, before its transaction is committed.
      const a = await startWeirWithFaults(['run', jobFile, '--quiet'], dir, { killHostBeforeNotify: 1 }).result;
      assert.equal(a.signal, 'SIGKILL');
      // B: resumes checkpoint 1 (committing its transaction) with checkpoints far apart, and is killed
      // as soon as it has opened a transaction of its own.
      writeJob(dir, job('1h'));
      const b = startWeir(['run', jobFile, '--resume', '--quiet'], dir);
      const pending = () => readdirSync(out).filter((n) => n.startsWith('.pending-'));
      await until(() => readCommitted(out).length > 0 && pending().length > 0, 20_000);
      const committedByB = readCommitted(out).length;
      await new Promise((r) => setTimeout(r, 100));
      b.child.kill('SIGKILL');
      await b.result;
      // C: resumes checkpoint 1 again and runs to the end.
      writeJob(dir, job('500ms'));
      const c = await runWeir(['run', jobFile, '--resume', '--quiet'], dir);
      assert.equal(c.code, 0, c.stderr);
      const seqs = readCommitted(out)
        .map((l) => (JSON.parse(l) as { seq: number }).seq)
        .sort((x, y) => x - y);
      assert.ok(committedByB > 0);
      assert.equal(seqs.length, 4000, 'every record exactly once');
      assert.deepEqual(
        seqs,
        Array.from({ length: 4000 }, (_, i) => i),
      );
    } finally {
      cleanup();
    }
  },
);
