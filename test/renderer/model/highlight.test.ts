import { test } from 'node:test';
import assert from 'node:assert/strict';
import { highlightSql } from '../../../renderer/src/model/highlight.ts';

test('tokens cover every character and classify keywords, functions, strings', () => {
  const text = "SUM(amount) AS total, user = 'a''b' AND x >= 10.5 #";
  const toks = highlightSql(text);
  assert.equal(toks.map((t) => t.text).join(''), text);
  const kind = (s: string) => toks.find((t) => t.text === s)?.kind;
  assert.equal(kind('SUM'), 'function');
  assert.equal(kind('AS'), 'keyword');
  assert.equal(kind('amount'), 'ident');
  assert.equal(kind("'a''b'"), 'string');
  assert.equal(kind('10.5'), 'number');
  assert.equal(kind('>='), 'op');
  assert.equal(highlightSql("'unterminated").length, 1);
});
