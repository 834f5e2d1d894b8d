import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseExpressionAst, referencedColumns } from '../../../engine/sql/index.ts';

describe('referencedColumns', () => {
  it('lists input columns in order of first use, once', () => {
    assert.deepEqual(referencedColumns('where', "amount >= 10 AND user LIKE 'a%' OR amount < 0"), ['amount', 'user']);
    assert.deepEqual(referencedColumns('select', '*, a + b AS c, UPPER(`d e`)'), ['a', 'b', 'd e']);
    assert.deepEqual(referencedColumns('keyBy', 'user, region'), ['user', 'region']);
    assert.deepEqual(
      referencedColumns('aggregates', 'COUNT(*) AS n, SUM(amount) AS s, MAX(CASE WHEN ok THEN amount END) AS m'),
      ['amount', 'ok'],
    );
    assert.deepEqual(referencedColumns('where', "CASE WHEN x IS NULL THEN y ELSE z END = 'q'"), ['x', 'y', 'z']);
  });
  it('returns [] for text that does not compile', () => {
    assert.deepEqual(referencedColumns('where', 'a >'), []);
    assert.deepEqual(referencedColumns('aggregates', 'a'), []);
  });
});

describe('parseExpressionAst', () => {
  it('gives the node-sql-parser AST with SQL precedence, the alias and the source text', () => {
    const [item] = parseExpressionAst('where', 'a OR b AND c');
    assert.equal(item.ast.type, 'binary_expr');
    assert.equal(item.ast.operator, 'OR');
    assert.equal(item.ast.right.operator, 'AND');
    assert.equal(item.text, 'a OR b AND c');
    const items = parseExpressionAst('select', 'x, y * 2 AS `two y`, *');
    assert.deepEqual(
      items.map((i) => [i.text, i.alias, i.star, i.start]),
      [
        ['x', null, false, 0],
        ['y * 2', 'two y', false, 3],
        ['*', null, true, 21],
      ],
    );
    const aggs = parseExpressionAst('aggregates', 'COUNT(*) AS n');
    assert.equal(aggs[0].ast.type, 'aggr_func');
    assert.deepEqual(parseExpressionAst('keyBy', ''), []);
  });
  it('throws for invalid text', () => {
    assert.throws(() => parseExpressionAst('where', 'a >'), /expected an expression after '>'/);
  });
});

describe('browser safety', () => {
  it('engine/sql (outside flink/) imports no Node built-ins', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../engine/sql');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const src = readFileSync(join(dir, file), 'utf8');
      const imports = [...src.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
      for (const spec of imports) {
        assert.ok(spec.startsWith('./') || spec.startsWith('node-sql-parser/'), `${file} imports ${spec}`);
      }
      assert.doesNotMatch(src, /\beval\s*\(|new Function\b|\bBuffer\b|\bprocess\./, file);
    }
  });
});
