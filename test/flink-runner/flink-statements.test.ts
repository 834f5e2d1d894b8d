/** The script splitter of `weir flink run --gateway` (engine/flink/statements.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitStatements } from '../../engine/flink/statements.ts';

test('splits at semicolons outside quotes and comments, with each first line', () => {
  const script = [
    '-- a comment; with a semicolon',
    "SET 'a.b' = 'x;y';",
    '/* block; comment */ CREATE TABLE `t;1` (a INT)',
    "  WITH ('connector' = 'it''s;');",
    'INSERT INTO s SELECT a FROM `t;1`',
  ].join('\n');
  assert.deepEqual(splitStatements(script), [
    { sql: "SET 'a.b' = 'x;y'", line: 2 },
    { sql: "CREATE TABLE `t;1` (a INT)\n  WITH ('connector' = 'it''s;')", line: 3 },
    { sql: 'INSERT INTO s SELECT a FROM `t;1`', line: 5 },
  ]);
});

test('a statement set, in either form, is one statement', () => {
  const execute =
    'EXECUTE STATEMENT SET\nBEGIN\n  -- first\n  INSERT INTO a SELECT 1;\n  INSERT INTO b SELECT 2;\nEND;\n';
  assert.deepEqual(splitStatements(execute), [
    { sql: 'EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND', line: 1 },
  ]);
  const begin = 'SET x = y;\nBEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nEND;';
  assert.deepEqual(
    splitStatements(begin).map((s) => s.sql),
    ['SET x = y', 'EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO a SELECT 1;\nEND'],
  );
  assert.throws(
    () => splitStatements('BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;'),
    /line 1: the statement set has no END/,
  );
});
