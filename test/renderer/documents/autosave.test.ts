import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readAutosave, startAutosave, clearAutosave } from '../../../renderer/src/documents/autosave.ts';
import { pushRecent, recentPaths } from '../../../renderer/src/documents/recent.ts';
import { createDocStore } from '../../../renderer/src/model/docStore.ts';
import { addNode } from '../../../renderer/src/model/ops.ts';

// A minimal browser: localStorage and window events, enough for the modules under test.
const data = new Map<string, string>();
const listeners = new Map<string, () => void>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      data.set(k, v);
    },
    removeItem: (k: string) => {
      data.delete(k);
    },
  },
  window: {
    addEventListener: (t: string, f: () => void) => {
      listeners.set(t, f);
    },
    removeEventListener: (t: string) => {
      listeners.delete(t);
    },
  },
});

beforeEach(() => {
  data.clear();
  listeners.clear();
});

test('dirty work is written after the debounce and cleared when saved', async () => {
  const store = createDocStore();
  const stop = startAutosave(store, 10);
  store.getState().commit('add', (j) => addNode(j, 'map', { x: 1, y: 2 }).job);
  assert.equal(readAutosave(), null, 'debounced');
  await new Promise((r) => setTimeout(r, 30));
  const saved = readAutosave();
  assert.equal(saved?.job.nodes[0].id, 'map-1');
  assert.equal(saved?.path, null);
  store.getState().markSaved('/ws/a.weir.json');
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(readAutosave(), null);
  stop();
});

test('a page hide flushes a pending write at once (reload right after an edit)', () => {
  const store = createDocStore();
  const stop = startAutosave(store, 10_000);
  store.getState().commit('add', (j) => addNode(j, 'filter', { x: 0, y: 0 }).job);
  listeners.get('pagehide')!();
  assert.equal(readAutosave()?.job.nodes.length, 1);
  stop();
  clearAutosave();
});

test('garbage in storage is ignored; recent paths are unique, newest first, at most 8', () => {
  data.set('weir.autosave.v1', '{not json');
  assert.equal(readAutosave(), null);
  data.set('weir.autosave.v1', JSON.stringify({ job: { format: 'other' } }));
  assert.equal(readAutosave(), null);
  for (let i = 0; i < 10; i++) pushRecent(`f${i}.json`);
  pushRecent('f5.json');
  const r = recentPaths();
  assert.equal(r.length, 8);
  assert.equal(r[0], 'f5.json');
  assert.equal(new Set(r).size, 8);
});
