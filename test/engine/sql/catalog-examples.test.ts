/**
 * The examples Flink's documentation gives for the functions of the catalog (docs/data/sql_functions.yml
 * in apache/flink, 1.20 and 2.x), each with the value the page states, plus the NULL rules. The
 * parity corpus (test/flink-parity/cases/*-functions.json) holds the rows measured on real Flink.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { value } from './helpers.ts';

function examples(cases: Array<[string, unknown]>, row: Record<string, unknown> = {}): void {
  for (const [expr, want] of cases) assert.deepEqual(value(expr, row), want, expr);
}

describe("Flink's documented examples", () => {
  it('string functions', () => {
    examples([
      ["CONCAT_WS('~', 'AA', CAST(NULL AS STRING), 'BB', '', 'CC')", 'AA~BB~~CC'],
      ["LPAD('hi', 4, '??')", '??hi'],
      ["LPAD('hi', 1, '??')", 'h'],
      ["RPAD('hi', 4, '??')", 'hi??'],
      ["RPAD('hi', 1, '??')", 'h'],
      ["REPEAT('This is a test String.', 2)", 'This is a test String.This is a test String.'],
      ["REGEXP_REPLACE('foobar', 'oo|ar', '')", 'fb'],
      ["OVERLAY('xxxxxtest' PLACING 'xxxx' FROM 6)", 'xxxxxxxxx'],
      ["OVERLAY('xxxxxtest' PLACING 'xxxx' FROM 6 FOR 2)", 'xxxxxxxxxst'],
      ["REPLACE('hello world', 'world', 'flink')", 'hello flink'],
      ["REPLACE('ababab', 'abab', 'z')", 'zab'],
      ["REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2)", 'bar'],
      ["FROM_BASE64('aGVsbG8gd29ybGQ=')", 'hello world'],
      ["TO_BASE64('hello world')", 'aGVsbG8gd29ybGQ='],
      ["ASCII('abc')", 97],
      ['CHR(97)', 'a'],
      ['CHR(353)', 'a'],
      ["LTRIM(' This is a test String.')", 'This is a test String.'],
      ["RTRIM('This is a test String. ')", 'This is a test String.'],
      ["INITCAP('hello wORLD foo-bar 3x')", 'Hello World Foo-Bar 3x'],
      ["POSITION('o' IN 'hello')", 5],
      ["LOCATE('o', 'hello world', 6)", 8],
      ["INSTR('hello', 'll')", 3],
      ["LEFT('hello', -1)", ''],
      ["RIGHT('hello', 2)", 'lo'],
      ["REVERSE('abc')", 'cba'],
      ["TRIM(BOTH 'x' FROM 'xxaxx')", 'a'],
      ["TRIM(LEADING 'x' FROM 'xxaxx')", 'axx'],
      ["TRIM(TRAILING FROM '  a  ')", '  a'],
      ["PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'HOST')", 'facebook.com'],
      ["PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'QUERY', 'k1')", 'v1'],
      ["TRANSLATE('abcab', 'ab', 'x')", 'xcx'],
      ["ELT(2, 'a', 'b')", 'b'],
      ["STARTSWITH('hello', '')", true],
    ]);
  });

  it('string functions are NULL for a NULL argument; CONCAT_WS skips NULLs; the IS_ predicates are FALSE', () => {
    const row = { n: null, s: 'x' };
    for (const e of [
      "LPAD(n, 2, 'x')",
      'REPEAT(n, 2)',
      'LOCATE(n, s)',
      'REVERSE(n)',
      'MD5(n)',
      "REGEXP_REPLACE(n, 'a', 'b')",
    ])
      assert.equal(value(e, row), null, e);
    assert.equal(value("CONCAT_WS(n, 'a', 'b')", row), null);
    assert.equal(value("CONCAT_WS('-', n, s)", row), 'x');
    assert.equal(value('IS_ALPHA(n)', row), false);
    assert.equal(value("LPAD('hi', -1, 'x')", row), null, 'a negative length');
    assert.equal(value("RPAD('hi', 5, '')", row), null, 'an empty pad');
  });

  it('numeric functions', () => {
    examples([
      ['BIN(4)', '100'],
      ['BIN(12)', '1100'],
      ['HEX(20)', '14'],
      ['HEX(100)', '64'],
      ["HEX('hello,world')", '68656C6C6F2C776F726C64'],
      ['TRUNCATE(42.324, 2)', 42.32],
      ['LOG(2, 8)', 3],
      ['LOG10(1000)', 3],
      ['LOG2(1024)', 10],
      ['LN(1)', 0],
      ['EXP(0)', 1],
      ['SIGN(-7)', -1],
      ['GREATEST(1, 5, 3)', 5],
      ['LEAST(4, 2, 8)', 2],
      ['GREATEST(1, CAST(NULL AS INT))', null],
      ['DEGREES(PI())', 180],
    ]);
    assert.throws(() => value('LOG(1, 8)'), /LOG: the base must be > 1/);
  });

  it('hash functions', () => {
    examples([
      ["MD5('')", 'd41d8cd98f00b204e9800998ecf8427e'],
      ["SHA1('abc')", 'a9993e364706816aba3e25717850c26c9cd0d89d'],
      ["SHA256('abc')", 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      [
        "SHA2('abc', 384)",
        'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
      ],
    ]);
  });

  it('temporal functions (UTC)', () => {
    const ts = "TIMESTAMP '1994-09-27 13:14:15'";
    examples([
      [`EXTRACT(DAY FROM ${ts})`, 27],
      [`YEAR(${ts})`, 1994],
      [`QUARTER(${ts})`, 3],
      [`MONTH(${ts})`, 9],
      [`WEEK(${ts})`, 39],
      [`DAYOFYEAR(${ts})`, 270],
      [`DAYOFMONTH(${ts})`, 27],
      [`DAYOFWEEK(${ts})`, 3],
      [`HOUR(${ts})`, 13],
      [`MINUTE(${ts})`, 14],
      [`SECOND(${ts})`, 15],
      ['FROM_UNIXTIME(44)', '1970-01-01 00:00:44'],
      ["UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS')", 28801],
      ["TO_TIMESTAMP('2020-01-02 03:04:05')", '2020-01-02T03:04:05.000Z'],
      ["TO_TIMESTAMP('31.12.2020', 'dd.MM.yyyy')", '2020-12-31T00:00:00.000Z'],
      ["TO_TIMESTAMP('2020-02-30 00:00:00')", null],
      [`TIMESTAMPDIFF(HOUR, ${ts}, TIMESTAMP '1994-09-28 12:00:00')`, 22],
      ["TIMESTAMPADD(MONTH, 1, TIMESTAMP '2020-01-31 00:00:00')", '2020-02-29T00:00:00.000Z'],
    ]);
    assert.equal(value("UNIX_TIMESTAMP('not a time')"), -9223372036854775808, "Flink's Long.MIN_VALUE");
  });

  it('JSON functions', () => {
    examples([
      ["'1' IS JSON", true],
      ["'[]' IS JSON", true],
      ["'{}' IS JSON", true],
      ['\'"abc"\' IS JSON', true],
      ["'abc' IS JSON", false],
      ['CAST(NULL AS STRING) IS JSON', false],
      ["'1' IS JSON SCALAR", true],
      ["'1' IS JSON ARRAY", false],
      ["'1' IS JSON OBJECT", false],
      ["'{}' IS JSON SCALAR", false],
      ["'{}' IS JSON ARRAY", false],
      ["'{}' IS JSON OBJECT", true],
      ["'{}' IS NOT JSON OBJECT", false],
      ["JSON_EXISTS('{\"a\": true}', '$.a')", true],
      ["JSON_EXISTS('{\"a\": true}', '$.b')", false],
      ['JSON_EXISTS(\'{"a": [{ "b": 1 }]}\', \'$.a[0].b\')', true],
      ["JSON_EXISTS('{\"a\": true}', 'strict $.b')", false],
      ['JSON_STRING(1)', '1'],
      ['JSON_STRING(TRUE)', 'true'],
      ["JSON_STRING('Hello, World!')", '"Hello, World!"'],
      ['JSON_STRING(CAST(NULL AS INT))', null],
      ["JSON_VALUE('{\"a\": true}', '$.a')", 'true'],
      ['JSON_VALUE(\'{"a.b": [0.998,0.996]}\', \'$.["a.b"][0]\')', '0.998'],
      ['JSON_QUERY(\'{ "a": { "b": 1 } }\', \'$.a\')', '{"b":1}'],
      ["JSON_QUERY('[1, 2]', '$')", '[1,2]'],
      ["JSON_QUERY(CAST(NULL AS STRING), '$')", null],
      ['JSON_QUERY(\'{"a":[{"c":"c1"},{"c":"c2"}]}\', \'lax $.a[*].c\')', '["c1","c2"]'],
      ["JSON_QUERY('1', '$')", null],
      ['JSON_OBJECT()', '{}'],
      ["JSON_OBJECT('K1' VALUE 'V1', 'K2' VALUE 'V2')", '{"K1":"V1","K2":"V2"}'],
      ["JSON_OBJECT(KEY 'K1' VALUE CAST(NULL AS STRING) NULL ON NULL)", '{"K1":null}'],
      ['JSON_ARRAY()', '[]'],
      ["JSON_ARRAY(1, '2')", '[1,"2"]'],
      ['JSON_ARRAY(CAST(NULL AS STRING) ABSENT ON NULL)', '[]'],
    ]);
  });

  it('conditional functions', () => {
    examples([
      ['IFNULL(CAST(NULL AS INT), 5)', 5],
      ["IS_ALPHA('abc')", true],
      ["IS_DIGIT('12a')", false],
      ["IS_DECIMAL('-1.5')", true],
      ["IS_DECIMAL('')", false],
    ]);
  });
});
