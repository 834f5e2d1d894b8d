/**
 * A checkpoint failure that ends the job is reported before the job's final status: the failed
 * checkpoint's `checkpoint` event (status, reason, and for memoryStateLimit the refused snapshot's
 * size) comes first, so a UI never keeps it "in progress". Real task processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import { startJob } from '../../../engine/runtime/job/job-runner.ts';
import type { JobHandle, RunEvent } from '../../../engine/runtime/job/api.ts';
import { tempDir } from '../../support/run-helpers.ts';

type CheckpointEvent = Extract<RunEvent, { type: 'checkpoint' }>;

function windowJob(dir: string, settings: Record<string, unknown>) {
  const v = validateJob(
    {
      format: 'weir.job/v1',
      name: 'cp-fail',
      settings: { parallelism: 2, restart: { attempts: 0 }, ...settings },
      nodes: [
        { id: 'gen', type: 'source.generator', config: { keys: 5000, rate: 50_000, eventTime: { field: 'ts' } } },
        {
          id: 'win',
          type: 'window',
          config: { keyBy: 'key', window: { kind: 'tumbling', size: '10s' }, aggregates: 'COUNT(*) AS n' },
        },
        { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
      ],
      edges: [
        { from: 'gen', to: 'win' },
        { from: 'win', to: 'out' },
      ],
    },
    { baseDir: dir },
  );
  assert.ok(v.ok, JSON.stringify(!v.ok && v.problems));
  return v.job;
}

/** The last `checkpoint` event of each id before the final job.status, and that status. */
function beforeEnd(events: RunEvent[]): {
  checkpoints: Map<number, CheckpointEvent['stats']>;
  final: Extract<RunEvent, { type: 'job.status' }>;
} {
  const last = events.findLastIndex((e) => e.type === 'job.status');
  const checkpoints = new Map<number, CheckpointEvent['stats']>();
  for (const e of events.slice(0, last)) if (e.type === 'checkpoint') checkpoints.set(e.stats.id, e.stats);
  return { checkpoints, final: events[last] as Extract<RunEvent, { type: 'job.status' }> };
}

test(
  'memoryStateLimit: the failed checkpoint (reason, refused size, limit) is reported before the job fails',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('cp-fail-limit');
    try {
      const events: RunEvent[] = [];
      const handle = await startJob({
        job: windowJob(dir, { stateBackend: 'memory', memoryStateLimit: '16kb', checkpointing: { interval: '300ms' } }),
        onEvent: (e) => events.push(e),
      });
      const r = await handle.done;
      assert.equal(r.status, 'failed');
      const { checkpoints, final } = beforeEnd(events);
      assert.equal(final.status, 'failed');
      assert.match(final.cause ?? '', /memoryStateLimit/);
      assert.ok(
        [...checkpoints.values()].every((c) => c.status !== 'in_progress'),
        'nothing left in progress',
      );
      const failed = [...checkpoints.values()].filter((c) => c.status === 'failed');
      assert.equal(failed.length, 1);
      assert.match(
        failed[0].failureReason ?? '',
        /operator 'win' subtask \d: snapshot of \d+ bytes .* memoryStateLimit/,
      );
      const refused = failed[0].subtasks.filter((s) => s.limitBytes !== undefined);
      assert.ok(refused.length >= 1, JSON.stringify(failed[0].subtasks));
      for (const s of refused) {
        assert.equal(s.operatorId, 'win');
        assert.equal(s.limitBytes, 16 * 1024);
        assert.ok(s.fullBytes > 16 * 1024, `refused size ${s.fullBytes} is over the limit`);
        assert.match(failed[0].failureReason!, new RegExp(`snapshot of ${s.fullBytes} bytes`));
      }
      assert.ok(failed[0].fullBytes >= refused[0].fullBytes);
    } finally {
      cleanup();
    }
  },
);

test(
  'a checkpoint in flight when the task process dies is failed with "task process died", before the final status',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('cp-fail-death');
    try {
      const events: RunEvent[] = [];
      let handle: JobHandle | null = null;
      let killedDuring: number | null = null;
      handle = await startJob({
        job: windowJob(dir, { stateBackend: 'fs', checkpointing: { interval: '200ms' } }),
        onEvent: (e) => {
          events.push(e);
          // Kill the moment checkpoint 2 is triggered: it is in flight when the process dies.
          if (
            e.type === 'checkpoint' &&
            e.stats.id === 2 &&
            e.stats.status === 'in_progress' &&
            killedDuring === null
          ) {
            killedDuring = e.stats.id;
            handle!.killTaskProcess();
          }
        },
      });
      const r = await handle.done;
      assert.equal(r.status, 'failed');
      assert.equal(killedDuring, 2);
      const { checkpoints, final } = beforeEnd(events);
      assert.equal(final.status, 'failed');
      assert.match(final.cause ?? '', /the task process killed by SIGKILL; restarts are disabled/);
      const cp2 = checkpoints.get(2);
      assert.ok(cp2, 'checkpoint 2 reported');
      assert.equal(cp2.status, 'failed');
      assert.match(cp2.failureReason ?? '', /task process died: killed by SIGKILL/);
      assert.equal(checkpoints.get(1)?.status, 'completed');
    } finally {
      cleanup();
    }
  },
);
