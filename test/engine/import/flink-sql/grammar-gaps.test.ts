import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskGrammarGaps } from '../../../../engine/import/flink-sql/grammar-gaps.ts';

test('masks TRY_CAST, CHAR_LENGTH and CHARACTER_LENGTH calls, keeping every position', () => {
  const sql = 'SELECT try_cast(a AS INT), CHAR_LENGTH (b), CHARACTER_LENGTH(c) FROM t;';
  const masked = maskGrammarGaps(sql);
  assert.equal(masked.length, sql.length);
  assert.equal(masked, 'SELECT CAST    (a AS INT), WEIR_CHARLN (b), WEIR_CHARACTERLN(c) FROM t;');
});

test('leaves strings, quoted names, comments and names that are no call alone', () => {
  const sql = [
    "SELECT 'TRY_CAST(x AS INT)' AS s, `CHAR_LENGTH` AS q, MY_TRY_CAST(a) AS m, char_length AS c -- TRY_CAST(",
    '/* CHAR_LENGTH( */ FROM t;',
  ].join('\n');
  assert.equal(maskGrammarGaps(sql), sql);
});
