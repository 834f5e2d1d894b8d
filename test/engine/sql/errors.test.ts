import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkExpression,
  compileAggregates,
  compileCondition,
  compileProjection,
  ExpressionError,
  parseKeyBy,
  type ExpressionKind,
} from '../../../engine/sql/index.ts';

function expectError(kind: ExpressionKind, text: string, message: string, column: number): void {
  const err = checkExpression(kind, text);
  assert.ok(err instanceof ExpressionError, `${kind} ${JSON.stringify(text)} should be rejected`);
  assert.equal(err.message, `${message} (column ${column})`, `${kind} ${JSON.stringify(text)}`);
  assert.equal(err.column, column);
  assert.equal(err.detail, message);
}

describe('syntax errors name the place in the user text', () => {
  it('a missing operand after an operator', () => {
    expectError('where', 'amount >=', "expected an expression after '>='", 9);
    expectError('where', 'amount >= ', "expected an expression after '>='", 9);
    expectError('where', 'amount >= 10 AND', "expected an expression after 'AND'", 16);
    expectError('where', 'amount >= AND b', "expected an expression after '>='", 11);
    expectError('where', 'a > > 1', "expected an expression after '>'", 5);
    expectError('where', '1 +', "expected an expression after '+'", 3);
    expectError('where', 'a IN 1', "expected an expression after 'IN'", 6);
    expectError('select', 'a,', "expected an expression after ','", 2);
    expectError('where', 'AND b', "expected an expression before 'AND'", 1);
  });
  it('counts columns in the user text even where reserved words were quoted for the parser', () => {
    expectError('where', "user = 'a' AND value > FOO(1)", 'unknown function FOO', 24);
    expectError('where', "user = 'a' AND value > > 1", "expected an expression after '>'", 24);
    expectError('aggregates', 'COUNT(*) AS n, MAX(FOO(value))', 'unknown function FOO', 20);
    expectError('select', 'value, key, UPPER(user, 1)', 'UPPER expects 1 argument, got 2', 13);
  });
  it('counts columns over several lines as character positions', () => {
    expectError('where', 'a = 1\nAND b >', "expected an expression after '>'", 13);
  });
  it('unexpected tokens, parentheses, strings and comments', () => {
    expectError('where', 'a > 1 b', "unexpected 'b'", 7);
    expectError('where', '(a > 1', "missing ')'", 6);
    expectError('where', 'a > 1)', "unexpected ')'", 6);
    expectError('where', "a = 'x", 'unterminated string literal', 5);
    expectError('where', 'a = `x', 'unterminated quoted identifier', 5);
    expectError('where', 'a = 1 /* x', 'unterminated comment', 7);
    expectError('where', 'a = 1; DROP TABLE x', "unexpected ';'", 6);
    expectError('where', 'a = 1 WHERE b', "unexpected 'WHERE'", 7);
    expectError('select', 'a FROM t', "unexpected 'FROM'", 3);
    expectError('where', 'CASE WHEN a THEN 1', 'CASE without END', 18);
    expectError('where', 'a BETWEEN 1', 'BETWEEN expects: x BETWEEN low AND high', 11);
    expectError('where', 'a = .5', 'write 0.5 instead of .5', 5);
    expectError('select', 'a AS', "expected a name or type after 'AS'", 4);
  });
  it('text that is not a string (a JSON config with a number or null)', () => {
    expectError('where', 42 as unknown as string, 'expected SQL text, got number', 1);
    expectError('keyBy', null as unknown as string, 'expected SQL text, got null', 1);
    expectError('aggregates', undefined as unknown as string, 'expected SQL text, got undefined', 1);
  });
  it('empty text', () => {
    expectError('where', '', 'expected an expression', 1);
    expectError('where', '  -- only a comment', 'expected an expression', 1);
    expectError('aggregates', '', 'expected an expression', 1);
  });
  it('never leaks the parser\'s raw "Expected ..." dump or the wrapper', () => {
    const bad = [
      'a +* 3',
      'a b c d',
      'CAST(a AS',
      'x IN (1,',
      'CASE END',
      'a NOT',
      'SUBSTRING(s FROM)',
      '@',
      'a = = b',
      ')(',
    ];
    for (const text of bad) {
      for (const kind of ['where', 'select', 'aggregates'] as const) {
        const err = checkExpression(kind, text);
        assert.ok(err, `${kind} ${text}`);
        assert.doesNotMatch(
          err.message,
          /Expected|but ".*" found|__weir_input__|SELECT|select/,
          `${kind} ${text}: ${err.message}`,
        );
        assert.ok(err.column >= 1 && err.column <= text.length + 1, `${kind} ${text}: column ${err.column}`);
      }
    }
  });
});

describe('semantic errors', () => {
  it('unknown functions and wrong argument counts', () => {
    expectError('where', 'FOO(a) > 1', 'unknown function FOO', 1);
    expectError('where', 'a > 1 AND foo(b)', 'unknown function FOO', 11);
    expectError('where', 'UPPER(a, b) = 1', 'UPPER expects 1 argument, got 2', 1);
    expectError('select', 'SUBSTRING(s)', 'SUBSTRING expects 2 to 3 arguments, got 1', 1);
    expectError('select', 'x, `y` + COALESCE()', 'COALESCE expects at least 1 argument, got 0', 10);
  });
  it('unsupported constructs', () => {
    expectError('where', 'a IN (SELECT b FROM c)', 'subqueries are not supported', 7);
    expectError('where', 'ROW_NUMBER() OVER (ORDER BY a) = 1', 'window functions (OVER) are not supported', 14);
    expectError('where', 'SUM(a) > 1', 'aggregate function SUM is not allowed in a filter condition', 1);
    expectError(
      'select',
      'a, COUNT(*)',
      'aggregate function COUNT is not allowed in a select list (use a window node to aggregate)',
      4,
    );
    expectError('where', 't.a = 1', 'qualified column names are not supported: write `a` instead of t.a', 1);
    expectError('where', 'a::INT = 1', "'::' casts are not Flink SQL: write CAST(x AS type)", 2);
    expectError(
      'where',
      'a = "x"',
      "double quotes are not valid in Flink SQL: write 'text' for a string or `name` for a column",
      5,
    );
    expectError('where', 'CAST(a AS FOO) = 1', 'unknown type FOO', 11);
    expectError(
      'where',
      'NOW() > a',
      "Flink's NOW is not supported in Weir: the current time is not deterministic, so a replay after a failure would differ",
      1,
    );
    expectError('where', 'a IS 5', 'IS expects NULL, TRUE or FALSE', 3);
    expectError('where', "ts > TIMESTAMP '2026-01-01' + INTERVAL '1' DAY", 'INTERVAL values are not supported', 31);
    expectError('where', "d = DATE '2026-01-01'", "DATE literals are not supported: use TIMESTAMP '...'", 5);
  });
  it('type errors that Flink would also reject', () => {
    expectError('where', "'abc'", 'the condition must be a boolean expression, not STRING', 1);
    expectError('where', 'a + 1', 'the condition must be a boolean expression, not a number', 1);
    expectError('where', 'a AND 5', 'AND expects a boolean operand, not BIGINT', 3);
    expectError('where', "NOT 'x'", 'NOT expects a boolean operand, not STRING', 1);
    expectError('where', '1 + TRUE > 0', "'+' expects numbers, not BOOLEAN", 3);
    expectError('where', '*', "'*' is not a condition", 1);
  });
  it('LIKE patterns and escapes', () => {
    expectError('where', "a LIKE 'x' ESCAPE 'ab'", 'ESCAPE expects a single character string', 12);
    expectError(
      'where',
      "a LIKE 'x!' ESCAPE '!'",
      "invalid LIKE pattern 'x!': the escape character must precede %, _ or itself",
      3,
    );
  });
  it('list shapes', () => {
    expectError('where', 'a, b', "unexpected ','", 3);
    expectError('select', '*, *', "'*' may appear only once", 4);
    expectError('select', 'a, b AS a', "duplicate column name 'a'", 4);
    expectError('keyBy', 'a + 1', 'keyBy expects a comma-separated list of column names', 1);
    expectError('keyBy', 'a, a', "duplicate key column 'a'", 4);
    expectError('keyBy', 'a, b[1]', 'keyBy expects a comma-separated list of column names', 4);
    expectError(
      'aggregates',
      'COUNT(*) AS n, SUM(amount) total, STDDEV(x)',
      'unknown aggregate function STDDEV: use COUNT, SUM, MIN, MAX, AVG, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP, FIRST_VALUE, LAST_VALUE or LISTAGG',
      35,
    );
    expectError(
      'aggregates',
      'SUM(a) + 1',
      'expected an aggregate function call: COUNT, SUM, MIN, MAX, AVG, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP, FIRST_VALUE, LAST_VALUE or LISTAGG',
      1,
    );
    expectError('aggregates', 'SUM(DISTINCT a)', 'SUM(DISTINCT ...) is not supported: only COUNT(DISTINCT x)', 1);
    expectError(
      'aggregates',
      'SUM(SUM(a))',
      'aggregate function SUM is not allowed in an aggregate argument (aggregates cannot be nested)',
      1,
    );
    expectError('aggregates', 'COUNT(*) AS n, MAX(a) AS n', "duplicate column name 'n'", 16);
  });
});

describe('the compile functions throw ExpressionError', () => {
  it('for each kind', () => {
    assert.throws(() => compileCondition('a >'), ExpressionError);
    assert.throws(() => compileProjection('a +'), ExpressionError);
    assert.throws(() => parseKeyBy('a,'), ExpressionError);
    assert.throws(() => compileAggregates('SUM('), ExpressionError);
  });
  it('accepts valid text of every kind', () => {
    assert.equal(checkExpression('where', "amount >= 10 AND user LIKE 'a%'"), null);
    assert.equal(checkExpression('select', '*, amount * 2 AS dbl'), null);
    assert.equal(checkExpression('keyBy', 'user, `region`'), null);
    assert.equal(checkExpression('keyBy', ''), null, 'keyBy is optional');
    assert.equal(checkExpression('aggregates', 'COUNT(*) AS n, SUM(amount) AS total, MAX(amount) AS top'), null);
    assert.equal(checkExpression('where', 'a -- trailing comment'), null);
  });
});
