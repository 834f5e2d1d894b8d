import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeProblemText } from '../../../renderer/src/model/problemText.ts';

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
