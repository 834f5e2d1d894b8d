import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorRanges, quotedNames, splitToken } from '../../../renderer/src/model/errorMarks.ts';
import { highlightSql } from '../../../renderer/src/model/highlight.ts';

const marked = (text: string, column: number | null, message: string | null) =>
  errorRanges(highlightSql(text), column, message).map(([s, e]) => text.slice(s, e));

test('the compiler error marks the token at its column', () => {
  assert.deepEqual(marked('seq >> 5', 6, null), ['>']);
  assert.deepEqual(marked('amount > 1 AND', 12, null), ['AND']);
  // Past the end: the last character.
  assert.deepEqual(marked('a +', 9, null), ['+']);
});

test('every use of a column the validator quotes is marked, never inside a string', () => {
  const msg = "unknown column 'usr' (columns: id, user, amount; did you mean 'user'?)";
  assert.deepEqual(quotedNames(msg), ['usr']);
  assert.deepEqual(marked("usr = 'usr' OR upper(usr) = 'A' OR usrx = 1", null, msg), ['usr', 'usr']);
  assert.deepEqual(marked('`usr` > 1', null, msg), ['`usr`']);
});

test('a type error marks the function it names, in any case', () => {
  const msg = "Cannot apply 'UPPER' to arguments of type 'UPPER(<BIGINT>)' (column 1)";
  assert.deepEqual(marked("upper(amount) = 'A'", null, msg), ['upper']);
  // An operator: the one at the message's column, not every '*'.
  const op = "Cannot apply '*' to arguments of type '<STRING> * <INT>' (column 25)";
  const text = 'amount * 2 > 1 AND user * 2 > 1';
  assert.deepEqual(
    errorRanges(highlightSql(text), null, op).map(([s]) => s),
    [24],
  );
});

test('a validator message naming no name marks the column it gives', () => {
  assert.deepEqual(marked('amount AND 1', null, 'the condition must be BOOLEAN, not BIGINT (column 1)'), ['amount']);
});

test('tokens split at mark edges and keep every character', () => {
  const [t] = highlightSql('abcdef');
  const pieces = splitToken(t, [[2, 4]]);
  assert.deepEqual(pieces, [
    { text: 'ab', marked: false },
    { text: 'cd', marked: true },
    { text: 'ef', marked: false },
  ]);
});
