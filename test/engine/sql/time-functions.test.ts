import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileProjection } from '../../../engine/sql/index.ts';
import { value } from './helpers.ts';

const compileError = (expr: string): string => {
  try {
    compileProjection(`${expr} AS v`);
  } catch (e) {
    return (e as Error).message;
  }
  return assert.fail(`${expr} compiled`);
};

describe('DATE_FORMAT (DateTimeFormatter letters, UTC)', () => {
  const t = Date.UTC(2026, 0, 5, 13, 7, 9, 45); // Monday 2026-01-05 13:07:09.045 UTC
  it('formats epoch milliseconds, TIMESTAMP values and timestamp text in UTC', () => {
    assert.equal(value("DATE_FORMAT(t, 'yyyy-MM-dd')", { t }), '2026-01-05');
    assert.equal(value("DATE_FORMAT(t, 'HH:mm')", { t }), '13:07');
    assert.equal(
      value("DATE_FORMAT(t, 'yyyy-MM-dd HH:mm:ss.SSS')", { t: new Date(t).toISOString() }),
      '2026-01-05 13:07:09.045',
    );
    assert.equal(value("DATE_FORMAT(t, 'yyyyMMddHH')", { t: '2026-01-05 13:07:09' }), '2026010513');
    assert.equal(value("DATE_FORMAT(CAST(t AS TIMESTAMP(3)), 'yy/M/d')", { t }), '26/1/5');
    assert.equal(value("DATE_FORMAT(TIMESTAMP '2026-12-31 23:59:59', 'D')", {}), '365');
  });
  it('knows text fields, 12-hour clocks, fractions and quoted literals', () => {
    assert.equal(value("DATE_FORMAT(t, 'EEE, d MMM yyyy')", { t }), 'Mon, 5 Jan 2026');
    assert.equal(value("DATE_FORMAT(t, 'EEEE MMMM')", { t }), 'Monday January');
    assert.equal(value("DATE_FORMAT(t, 'h:mm a')", { t }), '1:07 PM');
    assert.equal(value("DATE_FORMAT(t, 'K k')", { t: Date.UTC(2026, 0, 1, 0, 0) }), '0 24');
    assert.equal(value("DATE_FORMAT(t, 'S SS SSSSSS')", { t }), '0 04 045000');
    assert.equal(value("DATE_FORMAT(t, 'yyyy-MM-dd''T''HH')", { t }), '2026-01-05T13');
  });
  it('gives NULL for NULL or unreadable input', () => {
    assert.equal(value("DATE_FORMAT(t, 'yyyy')", { t: null }), null);
    assert.equal(value("DATE_FORMAT(t, 'yyyy')", { t: 'soon' }), null);
    assert.equal(value('DATE_FORMAT(t, f)', { t, f: null }), null);
  });
  it('rejects an unknown pattern letter and wrong types at compile time, fails the job for one per row', () => {
    assert.match(compileError("DATE_FORMAT(t, 'yyyy-QQ')"), /DATE_FORMAT: the pattern letter 'Q' is not supported/);
    assert.match(compileError("DATE_FORMAT(t, 'yyyy ''open')"), /unclosed quote/);
    assert.match(
      compileError("DATE_FORMAT(TRUE, 'yyyy')"),
      /the time \(argument 1\) must be TIMESTAMP or STRING or BIGINT, got BOOLEAN/,
    );
    assert.match(
      compileError('DATE_FORMAT(t, 5)'),
      /Cannot apply 'DATE_FORMAT' to arguments of type 'DATE_FORMAT\(<ANY>, <INT>\)'/,
    );
    assert.throws(() => value('DATE_FORMAT(t, f)', { t, f: 'QQ' }), {
      name: 'SqlRuntimeError',
      message: /pattern letter 'Q'/,
    });
  });
});

describe('TO_TIMESTAMP_LTZ (epoch seconds or milliseconds)', () => {
  it('reads epoch milliseconds (3) or seconds (0) as a TIMESTAMP; NULL gives NULL', () => {
    assert.equal(value('TO_TIMESTAMP_LTZ(t, 3)', { t: 1767311999750 }), '2026-01-01T23:59:59.750Z');
    assert.equal(value('TO_TIMESTAMP_LTZ(t, 0)', { t: 1767312000 }), '2026-01-02T00:00:00.000Z');
    assert.equal(value('TO_TIMESTAMP_LTZ(t, 3)', { t: null }), null);
    assert.equal(
      value("DATE_FORMAT(TO_TIMESTAMP_LTZ(t, 3), 'yyyy-MM-dd HH:mm')", { t: 1767311999750 }),
      '2026-01-01 23:59',
    );
  });
  it('accepts only the precisions Flink does, and a number', () => {
    assert.match(
      compileError('TO_TIMESTAMP_LTZ(t, 6)'),
      /TO_TIMESTAMP_LTZ: the precision \(argument 2\) must be the literal 0/,
    );
    assert.match(compileError('TO_TIMESTAMP_LTZ(t, p)'), /must be the literal 0/);
    assert.match(
      compileError("TO_TIMESTAMP_LTZ('x', 3)"),
      /Cannot apply 'TO_TIMESTAMP_LTZ' to arguments of type 'TO_TIMESTAMP_LTZ\(<STRING>, <INT>\)'/,
    );
  });
});
