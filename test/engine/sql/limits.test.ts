// Size limits of one expression: refused up front with the limit named, never a parser overflow,
// a misleading syntax error or a multi-gigabyte string at run time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkExpression, ExpressionError } from '../../../engine/sql/index.ts';
import {
  MAX_CALL_NESTING,
  MAX_EXPRESSION_CHARS,
  MAX_ITEM_TOKENS,
  MAX_NESTING_DEPTH,
} from '../../../engine/sql/limits.ts';
import { validateJob } from '../../../engine/graph/validate.ts';
import { baseJob, errorsOf, lines, node } from '../graph/job-builders.ts';

function refusal(kind: 'where' | 'select', text: string): string {
  const err = checkExpression(kind, text);
  assert.ok(err instanceof ExpressionError, `${text.slice(0, 40)}... should be refused`);
  return err.message;
}

describe('expression limits', () => {
  it('nesting 10,000 deep names the nesting limit, at the first level too deep', () => {
    const text = `${'('.repeat(10_000)}amount${')'.repeat(10_000)} > 1`;
    assert.equal(
      refusal('where', text),
      `expression nested more than ${MAX_NESTING_DEPTH} deep (parentheses, CASE, NOT); at most ${MAX_NESTING_DEPTH} (column ${MAX_NESTING_DEPTH + 1})`,
    );
    assert.match(refusal('where', `${'NOT '.repeat(10_000)}a`), /nested more than 64 deep/);
    // At the limit it is accepted.
    const atLimit = `${'('.repeat(MAX_NESTING_DEPTH)}amount${')'.repeat(MAX_NESTING_DEPTH)} > 1`;
    assert.equal(checkExpression('where', atLimit), null);
  });

  it('nested calls are limited where the parser would take exponential time', () => {
    const calls = (n: number): string => `${'ABS('.repeat(n)}amount${')'.repeat(n)}`;
    assert.equal(checkExpression('select', calls(MAX_CALL_NESTING)), null);
    assert.match(
      refusal('select', calls(1000)),
      new RegExp(
        `^function calls and CASE nested more than ${MAX_CALL_NESTING} deep; at most ${MAX_CALL_NESTING} \\(column \\d+\\)$`,
      ),
    );
    // Logical groups are not calls: a deep AND/OR tree stays within the general nesting limit.
    const groups = `${'a > 1 AND ('.repeat(30)}b > 1${')'.repeat(30)}`;
    assert.equal(checkExpression('where', groups), null);
  });

  it('a 10 MB string literal is refused by its length', () => {
    const text = `name = '${'x'.repeat(10_000_000)}'`;
    assert.equal(
      refusal('where', text),
      `expression text is 10,000,009 characters long; at most 100,000 (column ${MAX_EXPRESSION_CHARS + 1})`,
    );
  });

  it('a chain of 10,000 operators is refused by its size, not by a stack overflow', () => {
    const text = `${Array(10_000).fill('a').join(' + ')} > 1`;
    assert.equal(
      refusal('where', text),
      `expression has 20,001 tokens (names, literals, operators); at most ${MAX_ITEM_TOKENS.toLocaleString('en-US')} (column 1)`,
    );
    assert.equal(checkExpression('where', `${Array(900).fill('a').join(' + ')} > 1`), null);
  });

  it('the validator reports the limit after the field path', () => {
    const doc = baseJob();
    (node(doc, 'big').config as { where: string }).where = `${'('.repeat(10_000)}amount${')'.repeat(10_000)} > 1`;
    const r = validateJob(doc);
    assert.equal(r.ok, false);
    assert.deepEqual(lines(errorsOf(r.ok ? [] : r.problems)), [
      'nodes[1].config.where: expression nested more than 64 deep (parentheses, CASE, NOT); at most 64 (column 65)',
    ]);
  });
});
