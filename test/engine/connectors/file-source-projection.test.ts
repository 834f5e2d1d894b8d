/**
 * source.file reading only the columns a job reads (jsonl-projection.ts) against the same reader
 * building whole rows: on a file of random lines (CRLF and LF, multi-byte characters, lines
 * across the 1 MB read chunks, escaped strings, nested objects, DECIMAL-like amounts, bad lines,
 * bad timestamps, blank lines), batch by batch the projected rows equal the whole rows' read
 * columns, the event times, the bad records (file:line and reason) and the dead letters are the
 * same, and the positions are the same byte offsets, so a restore at any of them replays exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FileSourceReader } from '../../../engine/connectors/file-source.ts';
import type { SourceContext } from '../../../engine/contracts/source.ts';
import type { Row } from '../../../engine/contracts/operator.ts';
import type { FileSourceConfig } from '../../../engine/graph/types.ts';
import { tempDir } from '../../support/run-helpers.ts';

const COLUMNS = ['ts', 'amount', 'user'];

function ctx(dir: string, bad: string[]): SourceContext {
  return { subtask: 0, parallelism: 1, resolvePath: (p) => join(dir, p), badRecord: (w, m) => bad.push(`${w} ${m}`) };
}

function pick(row: Row): Row {
  const out: Row = {};
  for (const c of COLUMNS) if (Object.hasOwn(row, c)) out[c] = row[c];
  return out;
}

/** Lines of every kind the reader meets; about 2.5 MB so read chunks end inside lines and characters. */
function randomFile(seed: number): string {
  const user = fc.oneof(
    fc.constantFrom('zoë', '日本語のユーザー', 'o"neil', 'tab\there', '😀😀', 'plain'),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  );
  const good = fc
    .tuple(fc.nat(), user, fc.integer({ min: 0, max: 10 ** 7 }), fc.integer({ min: 0, max: 10 ** 9 }), fc.boolean())
    .map(([id, u, cents, ts, nestedFirst]) =>
      nestedFirst
        ? `{"meta":{"a":[1,{"b":"ü"}]},"ts":${ts},"user":${JSON.stringify(u)},"amount":${cents / 100}}`
        : `{"id":${id},"user":${JSON.stringify(u)},"amount":${(cents / 100).toFixed(2)},"ts":${ts},"note":"x\\u00e9"}`,
    );
  const odd = fc.constantFrom(
    '',
    '   ',
    '{"ts":"soon","amount":1}',
    '{"ts":1,"amount":1,}',
    'not json',
    '[1,2]',
    '{"ts":2,"user":{"nested":true}}',
    '{"ts":3,"amount":1e400}',
    '{"t\\u0073":4,"amount":2}',
    '{"ts":5,"ts":6}',
    '\ufeff{"ts":7}',
  );
  const lines = fc.sample(
    fc.array(fc.oneof({ weight: 20, arbitrary: good }, { weight: 1, arbitrary: odd }), {
      minLength: 40_000,
      maxLength: 40_000,
    }),
    { seed, numRuns: 1 },
  )[0];
  const eols = fc.sample(fc.constantFrom('\n', '\r\n'), { seed, numRuns: lines.length });
  return lines.map((l, i) => l + eols[i]).join('');
}

async function readBatches(r: FileSourceReader, max: number) {
  const out: Array<{ rows: Row[]; ts: number[]; bad: Row[]; pos: unknown }> = [];
  for (;;) {
    const b = await r.read(max);
    out.push({ rows: b.rows, ts: b.ts, bad: b.bad ?? [], pos: r.position() });
    if (b.end) return out;
  }
}

test('projected rows, event times, bad records and positions equal whole-row reading, batch by batch', async () => {
  const { dir, cleanup } = tempDir('fsrc-proj');
  try {
    for (const seed of [1, 2]) {
      const text = randomFile(seed);
      assert.ok(
        Buffer.byteLength(text) > 2 << 20,
        `the file spans several read chunks (${Buffer.byteLength(text)} bytes)`,
      );
      writeFileSync(join(dir, 'x.jsonl'), text);
      const cfg: FileSourceConfig = {
        path: 'x.jsonl',
        format: 'jsonl',
        onBadRecord: 'dead-letter',
        eventTime: { field: 'ts' },
      };
      const badWhole: string[] = [],
        badProj: string[] = [];
      const max = 97 + seed;
      const whole = await readBatches(new FileSourceReader(cfg, ctx(dir, badWhole)), max);
      const proj = await readBatches(new FileSourceReader(cfg, ctx(dir, badProj), [], COLUMNS), max);
      assert.equal(proj.length, whole.length);
      for (let i = 0; i < whole.length; i++) {
        assert.deepStrictEqual(proj[i].rows, whole[i].rows.map(pick), `batch ${i}`);
        assert.deepStrictEqual(proj[i].ts, whole[i].ts);
        assert.deepStrictEqual(proj[i].bad, whole[i].bad);
        assert.deepStrictEqual(proj[i].pos, whole[i].pos);
      }
      assert.deepStrictEqual(badProj, badWhole);
      assert.ok(badWhole.length > 100, 'the file has bad records');
      assert.ok(
        whole.flatMap((b) => b.rows).some((r) => String(r.user).includes('日本語')),
        'multi-byte users',
      );

      // A restore at a position in the middle replays exactly the rest.
      const mid = whole[Math.floor(whole.length / 2)];
      const rest = await readBatches(new FileSourceReader(cfg, ctx(dir, []), [mid.pos], COLUMNS), max);
      const wantRest = whole.slice(Math.floor(whole.length / 2) + 1).flatMap((b) => b.rows.map(pick));
      assert.deepStrictEqual(
        rest.flatMap((b) => b.rows),
        wantRest,
      );
    }
  } finally {
    cleanup();
  }
});

test('an edge sample switches the reader to whole rows and back', async () => {
  const { dir, cleanup } = tempDir('fsrc-proj');
  try {
    writeFileSync(join(dir, 'x.jsonl'), '{"ts":1,"a":1,"b":2}\n{"ts":2,"a":3,"b":4}\n{"ts":3,"a":5,"b":6}\n');
    const r = new FileSourceReader({ path: 'x.jsonl', format: 'jsonl' }, ctx(dir, []), [], ['a']);
    assert.deepStrictEqual((await r.read(1)).rows, [{ a: 1 }]);
    r.showAllColumns(true);
    assert.deepStrictEqual((await r.read(1)).rows, [{ ts: 2, a: 3, b: 4 }]);
    r.showAllColumns(false);
    assert.deepStrictEqual((await r.read(1)).rows, [{ a: 5 }]);
  } finally {
    cleanup();
  }
});
