import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FUNCTION_COMPLETIONS, completions, signatureOf, wordBefore } from '../../../renderer/src/model/completions.ts';
import { FUNCTIONS } from '../../../engine/sql/functions.ts';

const labels = (prefix: string, columns: string[], opts = {}) =>
  completions(
    prefix,
    columns.map((name) => ({ name, type: null })),
    opts,
  ).map((c) => c.label);

// Moved from highlight.test.ts with the completions themselves.
test('completions offer upstream columns first', () => {
  assert.deepEqual(wordBefore('amount > 1 AND us', 17), { word: 'us', start: 15 });
  assert.deepEqual(labels('u', ['user', 'amount']).slice(0, 2), ['user', 'UPPER']);
  assert.deepEqual(labels('', ['user']), []);
});

test('a column shows its type, a function its signature and opens its parenthesis', () => {
  const items = completions('u', [{ name: 'user', type: 'STRING' }]);
  assert.deepEqual(items[0], { label: 'user', kind: 'column', detail: 'STRING', insert: 'user' });
  const upper = items.find((c) => c.label === 'UPPER');
  assert.equal(upper?.kind, 'function');
  assert.equal(upper?.insert, 'UPPER(');
  assert.match(upper?.detail ?? '', /^UPPER\(/);
});

test('the catalog is offered with signatures; a function with a syntax of its own is not inserted as a call', () => {
  const offered = new Set(FUNCTION_COMPLETIONS.map((c) => c.label));
  const special = Object.keys(FUNCTIONS).filter((name) => !offered.has(name));
  assert.deepEqual(special, ['IS_JSON']);
  for (const c of FUNCTION_COMPLETIONS) assert.ok(c.detail?.startsWith(`${c.label}(`), c.detail ?? c.label);
  assert.equal(completions('LPA', [])[0]?.detail, 'LPAD(s STRING, len INT, pad STRING) → STRING');
  assert.equal(
    signatureOf('F', { min: 1, max: 2, params: ['STRING', 'INTEGER'], build: () => null as never }),
    'F(STRING, [INTEGER])',
  );
  assert.equal(signatureOf('G', { min: 1, max: Infinity, build: () => null as never }), 'G(arg1, ...)');
});

test('aggregates are offered only where a field takes them', () => {
  assert.ok(!labels('su', []).includes('SUM'));
  assert.deepEqual(labels('stddev', [], { aggregates: true }), ['STDDEV_POP', 'STDDEV_SAMP']);
  assert.deepEqual(labels('su', [], { aggregates: true }).slice(0, 1), ['SUM']);
  assert.ok(
    labels('co', ['country'], { aggregates: true }).indexOf('country') <
      labels('co', ['country'], { aggregates: true }).indexOf('COUNT'),
  );
});

test('matching ignores case for functions, keeps a column name as it is, and caps the list', () => {
  assert.equal(labels('Amo', ['amount'])[0], 'amount');
  assert.ok(labels('c', ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']).length <= 8);
  assert.ok(!labels('user', ['user']).includes('user'), 'the word typed in full is not offered again');
});
