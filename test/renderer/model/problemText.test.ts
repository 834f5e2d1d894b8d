import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeProblemText, problemLine } from '../../../renderer/src/model/problemText.ts';

test("a node shows an unknown column's suggestion instead of the list of every column", () => {
  assert.equal(
    nodeProblemText("unknown column 'usr' (columns: id, user, amount, ts; did you mean 'user'?)"),
    "unknown column 'usr': did you mean 'user'?",
  );
  // Without a suggestion the list is all the help there is: kept.
  const plain = "unknown column 'zzz' (columns: id, user)";
  assert.equal(nodeProblemText(plain), plain);
  assert.equal(nodeProblemText('must not be empty'), 'must not be empty');
});

test('a problem line puts a colon after the field unless the message says what the field must be', () => {
  const base = { severity: 'error' as const, nodeId: 'n', edgeIndex: null, fieldTestId: null };
  const line = (field: string | null, message: string) =>
    problemLine({ ...base, subject: 'File source "Orders"', field, message });
  assert.equal(line('path', 'must not be empty'), 'File source "Orders": path must not be empty');
  assert.equal(
    line('path', 'cannot read data/x.jsonl: no such file'),
    'File source "Orders": path: cannot read data/x.jsonl: no such file',
  );
  assert.equal(line('key by', "unknown column 'usr'"), 'File source "Orders": key by: unknown column \'usr\'');
  assert.equal(line(null, 'has no input'), 'File source "Orders": has no input');
});
