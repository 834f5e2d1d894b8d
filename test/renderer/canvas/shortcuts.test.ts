import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHORTCUTS } from '../../../renderer/src/canvas/shortcuts.ts';

// A key spec from the help table (`mod+Shift+Z`, `Alt+N`, `?`) as the event a keyboard sends.
function eventFor(spec: string): KeyboardEvent {
  const parts = spec.split('+');
  const k = parts[parts.length - 1] === '' ? '+' : parts[parts.length - 1];
  const mods = new Set(parts.slice(0, -1));
  const key = k === 'Space' ? ' ' : k.length === 1 ? (mods.has('Shift') ? k.toUpperCase() : k.toLowerCase()) : k;
  return {
    key,
    ctrlKey: mods.has('mod'),
    metaKey: false,
    shiftKey: mods.has('Shift'),
    altKey: mods.has('Alt'),
  } as KeyboardEvent;
}

// Entries whose keys are handled elsewhere (clipboard events, arrow nudging, React Flow's node focus).
const HANDLED_ELSEWHERE = new Set([
  'Copy, cut, paste (JSON on the clipboard)',
  'Nudge selection (Shift: 10x)',
  'Focus the next node; Enter selects it',
]);

test('every key listed in the help overlay triggers exactly its own entry first', () => {
  for (const s of SHORTCUTS) {
    if (HANDLED_ELSEWHERE.has(s.label)) continue;
    for (const spec of s.keys) {
      const first = SHORTCUTS.find((x) => x.match(eventFor(spec)));
      assert.equal(first?.label, s.label, `${spec} should run "${s.label}", runs "${first?.label}"`);
    }
  }
});

test('the help table covers the designer commands the issue asks for', () => {
  const labels = SHORTCUTS.map((s) => s.label.toLowerCase()).join('\n');
  for (const w of [
    'delete',
    'undo',
    'redo',
    'duplicate',
    'copy',
    'select all',
    'zoom to fit',
    'auto-layout',
    'snap',
    'minimap',
    'save',
    'open',
    'new',
    'run',
  ]) {
    assert.ok(labels.includes(w), `no shortcut for ${w}`);
  }
});
