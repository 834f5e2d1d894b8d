/**
 * Flink's keyword-syntax calls (TRIM ... FROM, POSITION ... IN, OVERLAY ... PLACING, EXTRACT ...
 * FROM, IS JSON, JSON_OBJECT's KEY / VALUE) parse into plain calls while every position and every
 * item's text still refer to what the user wrote.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSelectList } from '../../../engine/sql/parse.ts';
import { rewriteSpecialForms } from '../../../engine/sql/special-forms.ts';
import { compileProjection, ExpressionError } from '../../../engine/sql/index.ts';

function errorAt(text: string): { detail: string; column: number } {
  try {
    compileProjection(text);
  } catch (e) {
    if (e instanceof ExpressionError) return { detail: e.detail, column: e.column };
    throw e;
  }
  throw new Error(`${text} compiled`);
}

describe('keyword forms', () => {
  it('rewrite into plain calls and map offsets back', () => {
    const rw = rewriteSpecialForms("TRIM(LEADING 'x' FROM s)");
    assert.equal(rw.text, "TRIM('LEADING', 'x' , s)");
    const s = rw.text.lastIndexOf('s');
    assert.equal(rw.toOriginal(s), "TRIM(LEADING 'x' FROM s)".lastIndexOf('s'));
    assert.equal(rewriteSpecialForms('EXTRACT(DAY FROM ts)').text, "EXTRACT('DAY' , ts)");
    assert.equal(rewriteSpecialForms('j IS NOT JSON OBJECT').text, "NOT IS_JSON(j, 'OBJECT')");
    assert.equal(rewriteSpecialForms('UPPER(a) IS JSON').text, "IS_JSON(UPPER(a), 'VALUE')");
    assert.equal(rewriteSpecialForms("JSON_OBJECT(KEY 'k' VALUE v)").text, "JSON_OBJECT( 'k' , v)");
  });

  it("keep each item's own text and alias", () => {
    const { items } = parseSelectList("TRIM(BOTH 'x' FROM s) AS t, s IS JSON AS j, POSITION('a' IN s) p");
    assert.deepEqual(
      items.map((i) => [i.text, i.alias]),
      [
        ["TRIM(BOTH 'x' FROM s)", 't'],
        ['s IS JSON', 'j'],
        ["POSITION('a' IN s)", 'p'],
      ],
    );
  });

  it('report errors at the position the user wrote', () => {
    assert.deepEqual(errorAt("TRIM(BOTH 'x' FROM s) AS t, foo(1) AS f"), {
      detail: 'unknown function FOO',
      column: 29,
    });
    assert.deepEqual(errorAt('EXTRACT(FORTNIGHT FROM ts) AS e').column, 1);
    assert.match(errorAt('EXTRACT(FORTNIGHT FROM ts) AS e').detail, /the time unit \(argument 1\) must be one of YEAR/);
    assert.deepEqual(errorAt("JSON_VALUE(j, '$.a' RETURNING INT) AS v"), {
      detail:
        "JSON_VALUE's RETURNING clause is not supported in Weir: write JSON_VALUE(json, path) (NULL on empty or error) and CAST the result",
      column: 21,
    });
    assert.equal(errorAt('JSON_ARRAY(JSON_ARRAY(1)) AS a').column, 12);
    assert.match(errorAt("JSON_OBJECT('k' VALUE 1 ABSENT ON NULL) AS o").detail, /ABSENT ON NULL is not supported/);
  });

  it('leave columns named like the keywords alone', () => {
    const p = compileProjection('`from` AS f, `json` AS j, position AS p');
    assert.deepEqual(p.project({ from: 1, json: 2, position: 3 }), { f: 1, j: 2, p: 3 });
  });
});
