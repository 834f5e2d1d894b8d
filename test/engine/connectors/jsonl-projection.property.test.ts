/**
 * Property-based (fast-check): the projecting JSONL decoder against JSON.parse. On random JSON
 * lines (nested values, unicode and escaped strings, every number form, duplicate keys, random
 * whitespace) and on random corruptions of them, `decode` either gives null (slow path) or exactly
 * `project(JSON.parse(line))`; it never accepts a line JSON.parse rejects. Guard assertions check
 * that the fast path really decodes most plain lines, so the property is not met by always
 * falling back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JsonlProjector } from '../../../engine/connectors/jsonl-projection.ts';
import type { Row } from '../../../engine/contracts/operator.ts';

const COLUMNS = ['amount', 'user', 'ts', 'zoë'];
const KEYS = [...COLUMNS, 'id', 'category', 'amounts', 'us', 'x'];
const projector = JsonlProjector.for(COLUMNS)!;

const numberText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.tuple(fc.integer({ min: -99999, max: 99999 }), fc.stringMatching(/^\d{1,25}$/)).map(([i, f]) => `${i}.${f}`),
  fc.tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: -400, max: 400 })).map(([m, e]) => `${m}e${e}`),
  fc.constantFrom('0', '-0', '0.0', '-0.0', '1E2', '1e+2', '1.5e-3', '9007199254740993', '123456789012345.6'),
);
const stringText = fc
  .oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('zoë', 'o"neil', 'a\\b', '\u2028'),
  )
  .map((s) => JSON.stringify(s));
const leaf = fc.oneof(numberText, stringText, fc.constantFrom('true', 'false', 'null'));
const nested = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
const ws = fc.constantFrom('', '', '', ' ', '\t', '  ', '\r', ' \n ');

const line = fc
  .array(
    fc.tuple(
      fc.constantFrom(...KEYS),
      fc.oneof({ weight: 5, arbitrary: leaf }, { weight: 1, arbitrary: nested }),
      ws,
      ws,
    ),
    {
      maxLength: 8,
    },
  )
  .chain((fields) =>
    fc
      .tuple(ws, ws)
      .map(
        ([a, b]) =>
          `${a}{${fields.map(([k, v, w1, w2]) => `${w1}${JSON.stringify(k)}${w2}:${w1}${v}${w2}`).join(',')}}${b}`,
      ),
  );

function expected(text: string): Row | 'invalid' {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'invalid';
  return projector.project(v as Row);
}

/** decode's answer must be null or the projected JSON.parse row (never a row for an invalid line). */
function check(text: string): boolean {
  const buf = Buffer.from(text, 'utf8');
  const pad = Buffer.concat([Buffer.from('xx'), buf, Buffer.from('yy')]); // decode works on a window
  const got = projector.decode(pad, 2, 2 + buf.length);
  if (got === null) return false;
  // The reader sees bytes: the reference is JSON.parse of those bytes decoded (a lone surrogate in
  // a JS string is written as U+FFFD).
  const want = expected(buf.toString('utf8'));
  assert.notEqual(want, 'invalid', `decoded a line JSON.parse rejects: ${text}`);
  assert.deepStrictEqual(got, want, text);
  for (const k of Object.keys(got)) if (Object.is(got[k], -0)) assert.ok(Object.is((want as Row)[k], -0), text);
  return true;
}

test('random JSON lines: the fast path gives what JSON.parse gives, and takes most plain lines', () => {
  let fast = 0,
    total = 0;
  fc.assert(
    fc.property(line, (text) => {
      total++;
      if (check(text)) fast++;
    }),
    { numRuns: 5_000 },
  );
  assert.ok(fast > total / 3, `fast path taken for ${fast} of ${total} lines`);
});

test('plain order lines always take the fast path', () => {
  fc.assert(
    fc.property(
      fc.integer(),
      fc.integer({ min: 0, max: 99999 }),
      fc.string({ unit: 'grapheme' }),
      (id, cents, user) => {
        const text = `{"id":${id},"user":${JSON.stringify(user)},"amount":${cents / 100},"ts":${id * 7}}`;
        assert.ok(check(text) || JSON.stringify(user).includes('\\'), text); // an escape: the slow path
      },
    ),
    { numRuns: 3_000 },
  );
});

test('corrupted lines: never a row for a line JSON.parse rejects', () => {
  fc.assert(
    fc.property(
      line,
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.constantFrom(
            '',
            '"',
            '\\',
            '{',
            '}',
            ',',
            ':',
            '[',
            ']',
            '-',
            '.',
            'e',
            '0',
            '1',
            ' ',
            '\u0001',
            'é',
            'tru',
            'nul',
            '\ufeff',
          ),
        ),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      fc.boolean(),
      (text, edits, remove) => {
        let t = text;
        for (const [at, s] of edits) {
          const i = t.length ? at % (t.length + 1) : 0;
          t = t.slice(0, i) + s + t.slice(remove ? i + 1 : i);
        }
        check(t);
      },
    ),
    { numRuns: 10_000 },
  );
});

test('invalid UTF-8 bytes inside a read string decode as JSON.parse of the decoded line reads them', () => {
  for (const bytes of [[0xe2, 0x82], [0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98]]) {
    const buf = Buffer.concat([Buffer.from('{"user":"a'), Buffer.from(bytes), Buffer.from('","ts":1}')]);
    const got = projector.decode(buf, 0, buf.length);
    assert.deepStrictEqual(got, projector.project(JSON.parse(buf.toString('utf8')) as Row));
  }
});

test('__proto__ is never projected by assignment', () => {
  assert.equal(JsonlProjector.for(['__proto__', 'a']), null);
});
