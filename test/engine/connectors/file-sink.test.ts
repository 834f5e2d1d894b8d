/** The two-phase-commit file sink: begin/preCommit/commit/abort, idempotent commit, recovery. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FileSinkOperator, type FileSinkState } from '../../../engine/connectors/file-sink.ts';
import { commitTransaction, recoverSinkFolder } from '../../../engine/connectors/file-sink-txn.ts';
import type { OperatorContext } from '../../../engine/contracts/operator.ts';
import type { OperatorServices } from '../../../engine/contracts/operator-services.ts';
import { tempDir } from '../../support/run-helpers.ts';

const services = (checkpointing: boolean): OperatorServices => ({
  lineage: 'abcd',
  attempt: 1,
  checkpointing,
  sendPreview: () => undefined,
  log: () => undefined,
});
function ctx(dir: string): OperatorContext {
  return {
    nodeId: 'out',
    subtask: 0,
    parallelism: 1,
    maxParallelism: 128,
    keyGroupRange: { start: 0, end: 127 },
    state: null,
    metrics: { lateRecords: () => undefined, badRecords: () => undefined },
    resolvePath: (p) => join(dir, p),
  };
}
const noOut = { emit: () => undefined, emitWatermark: () => undefined };
const rows = (...v: number[]) => ({ rows: v.map((x) => ({ x })), ts: v.map(() => NaN) });
const visible = (dir: string) =>
  readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .sort();
const hidden = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.'));

test('records become visible only when the checkpoint that pre-committed them completes', async () => {
  const { dir, cleanup } = tempDir('sink');
  try {
    const out = join(dir, 'o');
    const s = new FileSinkOperator({ path: 'o', format: 'jsonl' }, services(true));
    await s.open(ctx(dir), noOut);
    await s.processBatch(rows(1, 2));
    assert.deepEqual(visible(out), []);
    const snap1 = (await s.snapshotState(1)).operator as FileSinkState;
    assert.equal(snap1.pending.length, 1);
    await s.processBatch(rows(3));
    await s.snapshotState(2);
    assert.deepEqual(visible(out), [], 'pre-committed is not committed');
    await s.notifyCheckpointComplete(1);
    assert.deepEqual(visible(out), ['part-abcd-0-000001.jsonl']);
    assert.equal(readFileSync(join(out, 'part-abcd-0-000001.jsonl'), 'utf8'), '{"x":1}\n{"x":2}\n');
    await s.notifyCheckpointComplete(2);
    assert.deepEqual(visible(out), ['part-abcd-0-000001.jsonl', 'part-abcd-0-000002.jsonl']);
    commitTransaction(out, snap1.pending[0]); // a repeated commit is harmless
    assert.deepEqual(visible(out), ['part-abcd-0-000001.jsonl', 'part-abcd-0-000002.jsonl']);
    await s.endInput();
    await s.close();
    assert.deepEqual(hidden(out), []);
  } finally {
    cleanup();
  }
});

test('recovery commits what the snapshot lists as pending and aborts every other transaction', async () => {
  const { dir, cleanup } = tempDir('sink');
  try {
    const out = join(dir, 'o');
    const s = new FileSinkOperator({ path: 'o', format: 'csv' }, services(true));
    await s.open(ctx(dir), noOut);
    await s.processBatch(rows(1));
    const snap = (await s.snapshotState(5)).operator as FileSinkState;
    await s.processBatch(rows(2)); // after the checkpoint: must be aborted on recovery
    // crash: no notify, no close
    assert.equal(hidden(out).length, 2);
    const r = recoverSinkFolder(out, snap.pending);
    assert.deepEqual(r, { committed: 1, aborted: 1 });
    assert.deepEqual(visible(out), ['part-abcd-0-000005.csv']);
    assert.equal(readFileSync(join(out, 'part-abcd-0-000005.csv'), 'utf8'), 'x\n1\n');
    assert.deepEqual(hidden(out), []);
    assert.deepEqual(recoverSinkFolder(out, snap.pending), { committed: 1, aborted: 0 }, 'idempotent');
    assert.deepEqual(visible(out), ['part-abcd-0-000005.csv']);
  } finally {
    cleanup();
  }
});

test('without checkpointing the single transaction commits at end of input; close aborts an open one', async () => {
  const { dir, cleanup } = tempDir('sink');
  try {
    const out = join(dir, 'o');
    const s = new FileSinkOperator({ path: 'o', format: 'jsonl' }, services(false));
    await s.open(ctx(dir), noOut);
    await s.processBatch(rows(1));
    await s.endInput();
    assert.deepEqual(visible(out), ['part-abcd-0-end.jsonl']);
    const t = new FileSinkOperator({ path: 'o2', format: 'jsonl' }, services(false));
    await t.open(ctx(dir), noOut);
    await t.processBatch(rows(1));
    await t.close();
    assert.ok(!existsSync(join(dir, 'o2')) || readdirSync(join(dir, 'o2')).length === 0);
  } finally {
    cleanup();
  }
});
