/**
 * Chaos for the relational operators on fs and rocksdb: `weir run` SIGKILLed at random moments at
 * least five times and resumed; the committed changelog folded into its table (aggregate, topn) or
 * the committed rows (interval join) must equal the plain reference exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { readCommitted, tempDir, writeJob } from '../support/run-helpers.ts';
import { checkpointProgress, killWholeProcessLoop } from './chaos-runner.ts';
import {
  committedTable,
  relationalChaosJob,
  relationalRecords,
  relationalReference,
  type RelationalKind,
} from './chaos-relational-jobs.ts';

const KINDS: RelationalKind[] = ['aggregate', 'aggregate.changelog', 'topn', 'join.interval', 'join', 'join.window'];
const CHANGELOG: RelationalKind[] = ['aggregate', 'aggregate.changelog', 'topn', 'join'];

for (const kind of KINDS) {
  const want = relationalReference(kind);
  for (const backend of ['fs', 'rocksdb'] as const) {
    test(
      `${kind}, ${backend}: killed 5+ times with SIGKILL and resumed, the folded output equals the reference`,
      { timeout: 180_000 },
      async () => {
        assert.ok(want.length >= 9, `the reference has rows (${want.length})`);
        const { dir, cleanup } = tempDir(`chaos-${kind}-${backend}`);
        try {
          const job = writeJob(dir, relationalChaosJob(kind, backend, 5_000));
          const r = await killWholeProcessLoop(dir, job, 5, 11, {
            minMs: 0,
            spanMs: 900,
            afterCheckpoint: true,
            progress: checkpointProgress(join(dir, 'checkpoints'), { records: relationalRecords(kind) }),
          });
          if (kind === 'join') {
            const retracted = readCommitted(join(dir, 'out')).filter((l) => l.startsWith('{"op":"-D"')).length;
            assert.ok(retracted > 100, `padded rows were retracted on a match (${retracted})`);
          }
          assert.equal(r.final.code, 0, r.final.stderr);
          assert.ok(r.kills >= 5, `only ${r.kills} kills happened before the job finished`);
          const got = committedTable(join(dir, 'out'), CHANGELOG.includes(kind));
          if (kind === 'aggregate.changelog') {
            // the per-key results are few; what matters is that superseded maxima were retracted
            const updates = readCommitted(join(dir, 'out')).filter((l) => l.startsWith('{"op":"-U"')).length;
            assert.ok(updates > 3 * want.length, `the second aggregate retracted and updated (${updates} -U)`);
          }
          if (kind === 'aggregate' || kind === 'topn') {
            const changes = readCommitted(join(dir, 'out')).length;
            assert.ok(changes > 5 * want.length, `the changelog really carries updates (${changes} changes)`);
          }
          assert.equal(got.length, want.length);
          assert.deepEqual(got, want);
          assert.deepEqual(
            readdirSync(join(dir, 'out')).filter((n) => n.startsWith('.') && n !== '.weir-sink-manifest.jsonl'),
            [],
            'no pending transactions left',
          );
        } finally {
          cleanup();
        }
      },
    );
  }
}
