import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileProjection } from '../../../engine/sql/index.ts';
import { value } from './helpers.ts';
import { tokenAt } from '../../../engine/sql/text-functions.ts';

const compileError = (expr: string): string => {
  try {
    compileProjection(`${expr} AS v`);
  } catch (e) {
    return (e as Error).message;
  }
  return assert.fail(`${expr} compiled`);
};

describe('REGEXP_EXTRACT (Java regex, Flink NULL rules)', () => {
  const url = 'https://www.nexmark.com/abc/item.htm?query=1&channel_id=1234&x=y';
  it('extracts a group of the first match, group 0 by default', () => {
    assert.equal(value("REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)", { url }), '1234');
    assert.equal(value("REGEXP_EXTRACT(url, 'channel_id=[0-9]+')", { url }), 'channel_id=1234');
    assert.equal(value("REGEXP_EXTRACT(s, '([a-z]+)([0-9]+)', 1)", { s: '--foo12 bar34' }), 'foo');
  });
  it('gives NULL on no match, a group out of range, a group that did not take part, NULL input', () => {
    assert.equal(value("REGEXP_EXTRACT(s, 'x(y)', 1)", { s: 'abc' }), null);
    assert.equal(value("REGEXP_EXTRACT(s, 'a(b)', 2)", { s: 'abc' }), null);
    assert.equal(value("REGEXP_EXTRACT(s, 'a(b)', -1)", { s: 'abc' }), null);
    assert.equal(value("REGEXP_EXTRACT(s, 'a(x)?', 1)", { s: 'abc' }), null);
    assert.equal(value("REGEXP_EXTRACT(s, 'a')", { s: null }), null);
    assert.equal(value('REGEXP_EXTRACT(s, p)', { s: 'abc', p: null }), null);
    assert.equal(value("REGEXP_EXTRACT(s, 'a', i)", { s: 'abc', i: null }), null);
  });
  it('takes Java inline flags, and gives NULL for a per-row pattern that does not compile (as Flink)', () => {
    assert.equal(value("REGEXP_EXTRACT(s, '(?i)ABC')", { s: 'xabcx' }), 'abc');
    assert.equal(value('REGEXP_EXTRACT(s, p)', { s: 'abc', p: '(' }), null);
    assert.equal(value('REGEXP_EXTRACT(s, p, 1)', { s: 'abc', p: '(b)' }), 'b');
  });
  it('rejects a constant pattern that does not compile or uses Java-only syntax, and wrong types', () => {
    assert.match(
      compileError("REGEXP_EXTRACT(s, '(a')"),
      /REGEXP_EXTRACT: invalid regular expression '\(a'.*\(column 1\)/,
    );
    assert.match(compileError("REGEXP_EXTRACT(s, '\\Aabc')"), /uses \\A, which Weir does not support/);
    assert.match(
      compileError("REGEXP_EXTRACT(s, 'a', 'one')"),
      /Cannot apply 'REGEXP_EXTRACT' to arguments of type 'REGEXP_EXTRACT\(<ANY>, <STRING>, <STRING>\)'/,
    );
    assert.match(
      compileError("REGEXP_EXTRACT(1, 'a')"),
      /Cannot apply 'REGEXP_EXTRACT' to arguments of type 'REGEXP_EXTRACT\(<INT>, <STRING>\)'/,
    );
    assert.match(compileError('REGEXP_EXTRACT(s)'), /REGEXP_EXTRACT expects 2 to 3 arguments, got 1/);
  });
});

describe('SPLIT_INDEX (0-based, NULL out of range)', () => {
  const url = 'https://www.nexmark.com/abc/def/item.htm?query=1';
  it('splits on the whole separator, keeping empty tokens', () => {
    assert.equal(value("SPLIT_INDEX(url, '/', 0)", { url }), 'https:');
    assert.equal(value("SPLIT_INDEX(url, '/', 1)", { url }), '');
    assert.equal(value("SPLIT_INDEX(url, '/', 3)", { url }), 'abc');
    assert.equal(value("SPLIT_INDEX(url, '/', 5)", { url }), 'item.htm?query=1');
    assert.equal(value("SPLIT_INDEX(s, '--', 1)", { s: 'a--b----c' }), 'b');
    assert.equal(value("SPLIT_INDEX(s, '--', 2)", { s: 'a--b----c' }), '');
    assert.equal(value('SPLIT_INDEX(s, 47, 1)', { s: 'a/b' }), 'b', 'a character code as separator');
  });
  it('finds the token String.split would, for separators that repeat, overlap or end the string', () => {
    const alphabet = ['a', 'b', '/', '-'];
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      let str = '';
      for (let len = rnd(12); len > 0; len--) str += alphabet[rnd(alphabet.length)];
      const sep = ['/', '--', '-/', 'a', 'aa', '//'][rnd(6)];
      const all = str === '' ? [] : str.split(sep);
      for (let i = 0; i <= all.length + 1; i++, checked++)
        assert.equal(tokenAt(str, sep, i), all[i], `${str} ${sep} ${i}`);
    }
    assert.ok(checked > 10_000);
  });
  it('gives NULL out of range, for a negative index, an empty string or a NULL argument', () => {
    assert.equal(value("SPLIT_INDEX(url, '/', 6)", { url }), null);
    assert.equal(value("SPLIT_INDEX(url, '/', -1)", { url }), null);
    assert.equal(value("SPLIT_INDEX(s, '/', 0)", { s: '' }), null);
    assert.equal(value("SPLIT_INDEX(s, '/', 0)", { s: null }), null);
    assert.equal(value('SPLIT_INDEX(s, p, 0)', { s: 'a', p: null }), null);
  });
  it('checks argument types', () => {
    assert.match(
      compileError("SPLIT_INDEX(s, '/', '1')"),
      /Cannot apply 'SPLIT_INDEX' to arguments of type 'SPLIT_INDEX\(<ANY>, <STRING>, <STRING>\)'/,
    );
    assert.match(
      compileError('SPLIT_INDEX(s, TRUE, 1)'),
      /the separator \(argument 2\) must be STRING or BIGINT, got BOOLEAN/,
    );
  });
});
