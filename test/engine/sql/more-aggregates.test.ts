/**
 * STDDEV / VAR, FIRST_VALUE, LAST_VALUE and LISTAGG: the values Flink gives (the parity corpus's
 * aggregate-functions.json was measured on Flink 1.20 and 2.x), and their retraction and merging:
 * adding rows then retracting some gives what adding only the rest gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accumulatorFor, compileAggregates, retractingAccumulatorFor } from '../../../engine/sql/index.ts';

function aggregate(text: string, rows: Array<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of compileAggregates(text)) {
    const a = accumulatorFor(c.fn, c.distinct);
    let acc = a.create();
    for (const r of rows) acc = a.add(acc, c.input(r));
    out[c.alias] = a.result(JSON.parse(JSON.stringify(acc)));
  }
  return out;
}

describe('more aggregates', () => {
  const ints = [1, 2, 4, 10].map((v) => ({ v }));

  it('variances of integers divide and take roots as integers, as Flink reduces them', () => {
    assert.deepEqual(
      aggregate(
        'STDDEV_POP(v) AS sp, STDDEV_SAMP(v) AS ss, VAR_POP(v) AS vp, VAR_SAMP(v) AS vs, VARIANCE(v) AS vr',
        ints,
      ),
      { sp: 3, ss: 4, vp: 12, vs: 16, vr: 16 },
    );
    assert.deepEqual(aggregate('VAR_SAMP(v) AS vs, VAR_POP(v) AS vp', [{ v: 5 }]), { vs: null, vp: 0 });
    assert.deepEqual(aggregate('VAR_POP(v) AS vp', [{ v: null }]), { vp: null });
  });

  it('variances of DOUBLEs', () => {
    const r = aggregate('VAR_POP(CAST(v AS DOUBLE)) AS vp, STDDEV_SAMP(CAST(v AS DOUBLE)) AS ss', [
      { v: 1.5 },
      { v: 2.25 },
      { v: 4 },
    ]);
    assert.ok(Math.abs((r.vp as number) - 1.0972222222222223) < 1e-12, String(r.vp));
    assert.ok(Math.abs((r.ss as number) - 1.2829003598) < 1e-9, String(r.ss));
  });

  it('FIRST_VALUE, LAST_VALUE and LISTAGG skip NULLs and keep arrival order', () => {
    const rows = [{ s: 'x' }, { s: null }, { s: 'y' }, { s: 'z' }];
    assert.deepEqual(
      aggregate("FIRST_VALUE(s) AS f, LAST_VALUE(s) AS l, LISTAGG(s) AS a, LISTAGG(s, '; ') AS b", rows),
      {
        f: 'x',
        l: 'z',
        a: 'x,y,z',
        b: 'x; y; z',
      },
    );
    assert.throws(() => compileAggregates('LISTAGG(s, t) AS a'), /the separator must be a string literal/);
  });

  it('retracting rows gives what adding only the others gives; merging is adding', () => {
    for (const [text, rows, gone] of [
      ['VAR_SAMP(v)', [3, 8, 1, 6], [8]],
      ['STDDEV_POP(v)', [3, 8, 1, 6], [3, 1]],
      ['FIRST_VALUE(v)', [3, 8, 1, 6], [3]],
      ['LAST_VALUE(v)', [3, 8, 1, 6], [6]],
      ["LISTAGG(CAST(v AS STRING), '/')", [3, 8, 1, 6], [8]],
    ] as const) {
      const [c] = compileAggregates(`${text} AS x`);
      const r = retractingAccumulatorFor(c.fn);
      let acc = r.create();
      for (const v of rows) acc = r.add(acc, c.input({ v }));
      for (const v of gone) acc = r.retract(acc, c.input({ v }));
      let want = r.create();
      for (const v of rows.filter((x) => !(gone as readonly number[]).includes(x))) want = r.add(want, c.input({ v }));
      assert.deepEqual(r.result(acc), r.result(want), text);
      let left = r.create(),
        right = r.create();
      rows.slice(0, 2).forEach((v) => (left = r.add(left, c.input({ v }))));
      rows.slice(2).forEach((v) => (right = r.add(right, c.input({ v }))));
      let all = r.create();
      for (const v of rows) all = r.add(all, c.input({ v }));
      assert.deepEqual(r.result(r.merge(left, right)), r.result(all), `${text} merged`);
    }
  });

  it("refuses Flink's other aggregates by name", () => {
    assert.throws(
      () => compileAggregates('ARRAY_AGG(x) AS a'),
      /^ExpressionError: Flink's ARRAY_AGG is not supported in Weir: /,
    );
    assert.throws(() => compileAggregates('JSON_ARRAYAGG(x) AS a'), /Flink's JSON_ARRAYAGG is not supported in Weir/);
  });
});
