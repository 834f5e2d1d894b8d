import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobDocument } from '../../../engine/graph/types.ts';
import {
  addGroup,
  addNote,
  groupFrame,
  GROUP_PAD,
  moveNotes,
  pruneGroups,
  removeGroup,
  removeNote,
  setGroupLabel,
  setNoteText,
} from '../../../renderer/src/model/annotations.ts';
import { removeItems } from '../../../renderer/src/model/ops.ts';

const job = (): JobDocument => ({
  format: 'weir.job/v1',
  name: 't',
  settings: {},
  nodes: [
    { id: 'a', type: 'source.generator', name: 'A', position: { x: 0, y: 0 }, config: {} },
    { id: 'b', type: 'filter', name: 'B', position: { x: 300, y: 100 }, config: { where: 'x' } },
  ],
  edges: [{ from: 'a', to: 'b' }],
});

test('groups list existing nodes only; deleting members prunes them, an empty group goes', () => {
  const g = addGroup(job(), ['a', 'b', 'ghost']);
  assert.deepEqual(g.job.groups, [{ id: 'group-1', label: 'Group 1', nodes: ['a', 'b'] }]);
  assert.equal(addGroup(job(), ['ghost']).id, null);
  const one = pruneGroups(removeItems(g.job, ['a']));
  assert.deepEqual(one.groups?.[0].nodes, ['b']);
  const none = pruneGroups(removeItems(one, ['b']));
  assert.equal('groups' in none, false, 'no empty list left in the file');
  const renamed = setGroupLabel(g.job, 'group-1', 'Cleaning');
  assert.equal(renamed.groups?.[0].label, 'Cleaning');
  assert.equal(setGroupLabel(renamed, 'group-1', 'Cleaning'), renamed, 'a no-op keeps the object (no undo step)');
  assert.equal('groups' in removeGroup(g.job, 'group-1'), false);
});

test('a group frame encloses its members with room for the label', () => {
  const { job: j } = addGroup(job(), ['a', 'b']);
  const f = groupFrame(j, j.groups![0], new Map([['b', { width: 200, height: 60 }]]), { width: 208, height: 56 });
  assert.deepEqual(f, {
    x: -GROUP_PAD.x,
    y: -GROUP_PAD.top,
    width: 500 + 2 * GROUP_PAD.x,
    height: 160 + GROUP_PAD.top + GROUP_PAD.bottom,
  });
});

test('notes: add, write, move, remove; unique ids; no-ops keep the job', () => {
  const one = addNote(job(), { x: 10.4, y: 20.6 }, 'hello');
  assert.deepEqual(one.job.notes, [{ id: 'note-1', text: 'hello', position: { x: 10, y: 21 } }]);
  const two = addNote(one.job, { x: 0, y: 0 });
  assert.equal(two.id, 'note-2');
  const written = setNoteText(two.job, 'note-2', 'world');
  assert.equal(written.notes?.[1].text, 'world');
  assert.equal(setNoteText(written, 'note-2', 'world'), written);
  const moved = moveNotes(written, new Map([['note-1', { x: 50, y: 60 }]]));
  assert.deepEqual(moved.notes?.[0].position, { x: 50, y: 60 });
  assert.equal(moveNotes(moved, new Map([['note-1', { x: 50, y: 60 }]])), moved);
  assert.equal('notes' in removeNote(removeNote(moved, 'note-1'), 'note-2'), false);
});
