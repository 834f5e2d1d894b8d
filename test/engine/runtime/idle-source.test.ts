/**
 * Idleness end to end: a bounded source unioned with a tailing (`follow`) source that never gets
 * data. With `idleTimeout` the tailing source is marked idle, so the windows fire and the sink
 * commits; without it, the silent source holds the watermark back and nothing is emitted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateJob } from '../../../engine/graph/validate.ts';
import { startJob } from '../../../engine/runtime/job/job-runner.ts';
import { readCommitted, sleep, tempDir } from '../../support/run-helpers.ts';

const START = Date.UTC(2024, 0, 1);

function job(idleTimeout: string | undefined) {
  const et = (extra: object) => ({ field: 'ts', maxOutOfOrderness: 0, ...extra });
  return {
    format: 'weir.job/v1',
    name: 'idle',
    settings: { parallelism: 1, checkpointing: { interval: '100ms' } },
    nodes: [
      { id: 'a', type: 'source.file', config: { path: 'a', format: 'jsonl', eventTime: et({}) } },
      {
        id: 'b',
        type: 'source.file',
        config: { path: 'b', format: 'jsonl', follow: true, eventTime: et(idleTimeout ? { idleTimeout } : {}) },
      },
      { id: 'u', type: 'union', config: {} },
      {
        id: 'w',
        type: 'window',
        config: { keyBy: 'k', window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'a', to: 'u' },
      { from: 'b', to: 'u' },
      { from: 'u', to: 'w' },
      { from: 'w', to: 'out' },
    ],
  };
}

async function runFor(idleTimeout: string | undefined, ms: number): Promise<string[]> {
  const { dir, cleanup } = tempDir('idle');
  try {
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(
      join(dir, 'a', 'a.jsonl'),
      Array.from({ length: 50 }, (_, i) => JSON.stringify({ k: 'x', ts: START + i * 100 })).join('\n') + '\n',
    );
    writeFileSync(join(dir, 'b', 'b.jsonl'), '');
    const v = validateJob(job(idleTimeout), { baseDir: dir });
    assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
    const handle = await startJob({ job: v.job });
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && readCommitted(join(dir, 'out')).length < 5) await sleep(100);
    const out = readCommitted(join(dir, 'out'));
    await handle.stop();
    return out;
  } finally {
    cleanup();
  }
}

test(
  'an idle tailing source does not hold the watermark back once idleTimeout passed',
  { timeout: 30_000 },
  async () => {
    const out = await runFor('300ms', 15_000);
    assert.deepEqual(
      out.map((l) => JSON.parse(l).n),
      [10, 10, 10, 10, 10],
    );
  },
);

test('without idleTimeout the silent source holds every window back', { timeout: 30_000 }, async () => {
  assert.deepEqual(await runFor(undefined, 2500), []);
});
