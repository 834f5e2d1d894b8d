import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createHistory,
  record,
  undo,
  redo,
  canUndo,
  canRedo,
  undoLabel,
  redoLabel,
} from '../../../renderer/src/model/history.ts';

test('undo and redo walk the snapshots in order and a new edit clears the future', () => {
  let h = createHistory('a');
  h = record(h, 'b', 'add', { now: 0 });
  h = record(h, 'c', 'connect', { now: 5000 });
  assert.equal(undoLabel(h), 'connect');
  h = undo(h);
  assert.equal(h.present, 'b');
  assert.equal(redoLabel(h), 'connect');
  h = undo(h);
  assert.equal(h.present, 'a');
  assert.equal(canUndo(h), false);
  assert.equal(undo(h), h);
  h = redo(h);
  assert.equal(h.present, 'b');
  h = record(h, 'x', 'delete', { now: 9000 });
  assert.equal(canRedo(h), false);
  assert.deepEqual(
    h.past.map((e) => e.doc),
    ['a', 'b'],
  );
});

test('edits with the same coalesce key inside the window are one undo step', () => {
  let h = createHistory('');
  h = record(h, 'S', 'edit where', { coalesceKey: 'n1.where', now: 1000 });
  h = record(h, 'SU', 'edit where', { coalesceKey: 'n1.where', now: 1500 });
  h = record(h, 'SUM', 'edit where', { coalesceKey: 'n1.where', now: 2000 });
  assert.equal(h.past.length, 1);
  h = record(h, 'SUM2', 'edit where', { coalesceKey: 'n1.where', now: 9000 });
  assert.equal(h.past.length, 2, 'a pause starts a new step');
  h = record(h, 'SUM3', 'edit select', { coalesceKey: 'n1.select', now: 9100 });
  assert.equal(h.past.length, 3, 'another field starts a new step');
  h = undo(undo(h));
  assert.equal(h.present, 'SUM');
  h = undo(h);
  assert.equal(h.present, '');
  // After an undo, the next edit never merges into the undone step.
  h = record(h, 'Z', 'edit where', { coalesceKey: 'n1.where', now: 9200 });
  assert.equal(h.past.length, 1);
});

test('recording the identical document is a no-op and the limit drops the oldest', () => {
  let h = createHistory(0);
  assert.equal(record(h, 0, 'noop'), h);
  for (let i = 1; i <= 10; i++) h = record(h, i, `s${i}`, { limit: 3, now: i * 10_000 });
  assert.deepEqual(
    h.past.map((e) => e.doc),
    [7, 8, 9],
  );
});
