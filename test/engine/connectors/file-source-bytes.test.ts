/**
 * source.file on the bytes of real files (issue 23, item 10): a line that is not valid UTF-8 is a
 * bad record naming file:line (never a row whose text became U+FFFD), on the whole-row and the
 * projected path, at the end of a file without a newline, and in a file much larger than one read
 * chunk; valid multi-byte characters across chunk boundaries are rows. A UTF-8 byte order mark at
 * the start of a JSON Lines or CSV file is skipped, also when a CSV reader is restored mid-file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSourceReader } from '../../../engine/connectors/file-source.ts';
import { inferFileColumns } from '../../../engine/connectors/sample-columns.ts';
import type { SourceContext } from '../../../engine/contracts/source.ts';
import type { Row } from '../../../engine/contracts/operator.ts';
import type { FileSourceConfig } from '../../../engine/graph/types.ts';
import { tempDir } from '../../support/run-helpers.ts';

function ctx(dir: string, bad: string[]): SourceContext {
  return { subtask: 0, parallelism: 1, resolvePath: (p) => join(dir, p), badRecord: (w, m) => bad.push(`${w} ${m}`) };
}

async function readAll(r: FileSourceReader, max = 100): Promise<{ rows: Row[]; dead: Row[] }> {
  const rows: Row[] = [];
  const dead: Row[] = [];
  for (;;) {
    const b = await r.read(max);
    rows.push(...b.rows);
    dead.push(...(b.bad ?? []));
    if (b.end) return { rows, dead };
  }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const line = (s: string) => Buffer.from(`${s}\n`);

for (const columns of [null, ['u']] as const) {
  test(`invalid UTF-8 lines are bad records naming file:line (${columns ? 'projected' : 'whole rows'})`, async () => {
    const { dir, cleanup } = tempDir('bytes');
    try {
      writeFileSync(
        join(dir, 'x.jsonl'),
        Buffer.concat([
          line('{"u":"zoë"}'),
          Buffer.from('{"u":"a\xff"}\n', 'latin1'), // a lone 0xff
          line('{"u":"日本"}'),
          Buffer.from([...Buffer.from('{"u":"'), 0xe6, 0x97, ...Buffer.from('"}\n')]), // a cut 3-byte character
          Buffer.from([...Buffer.from('{"u":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}\n')]), // an encoded surrogate
          line('{"u":"😀"}'),
          Buffer.from([...Buffer.from('{"u":"'), 0xc0, 0xaf, ...Buffer.from('"}')]), // overlong, last line, no newline
        ]),
      );
      const bad: string[] = [];
      const cfg: FileSourceConfig = { path: 'x.jsonl', format: 'jsonl', onBadRecord: 'dead-letter' };
      const r = new FileSourceReader(cfg, ctx(dir, bad), undefined, columns);
      const { rows, dead } = await readAll(r);
      assert.deepEqual(rows, [{ u: 'zoë' }, { u: '日本' }, { u: '😀' }]);
      const reason = 'line is not valid UTF-8 (its text is shown with U+FFFD where the bytes are invalid)';
      assert.deepEqual(
        bad,
        [2, 4, 5, 7].map((n) => `x.jsonl:${n} ${reason}`),
      );
      assert.deepEqual(
        dead.map((d) => d.line),
        [2, 4, 5, 7],
      );
      assert.ok(!rows.some((x) => String(x.u).includes('\ufffd')), 'no row carries a replacement character');
    } finally {
      cleanup();
    }
  });
}

test('a large file: one bad line among 200,000 is found, characters split across 1 MB chunks are rows', async () => {
  const { dir, cleanup } = tempDir('bytes');
  try {
    const parts: Buffer[] = [];
    for (let i = 0; i < 200_000; i++) {
      if (i === 123_457) parts.push(Buffer.from(`{"i":${i},"u":"\xfe"}\n`, 'latin1'));
      else parts.push(line(`{"i":${i},"u":"日本語😀${'é'.repeat(i % 7)}"}`));
    }
    writeFileSync(join(dir, 'x.jsonl'), Buffer.concat(parts));
    const bad: string[] = [];
    const { rows } = await readAll(new FileSourceReader({ path: 'x.jsonl', format: 'jsonl' }, ctx(dir, bad)), 5000);
    assert.equal(rows.length, 199_999);
    assert.deepEqual(bad, [
      'x.jsonl:123458 line is not valid UTF-8 (its text is shown with U+FFFD where the bytes are invalid)',
    ]);
    assert.ok(rows.every((x) => x.u === `日本語😀${'é'.repeat((x.i as number) % 7)}`));
  } finally {
    cleanup();
  }
});

test('a CSV header that is not valid UTF-8 is reported and still the header: data lines do not shift', async () => {
  const { dir, cleanup } = tempDir('bytes');
  try {
    writeFileSync(join(dir, 'x.csv'), Buffer.concat([Buffer.from('id,n\xe4me\n', 'latin1'), line('1,a'), line('2,b')]));
    const bad: string[] = [];
    const { rows } = await readAll(new FileSourceReader({ path: 'x.csv', format: 'csv' }, ctx(dir, bad)));
    assert.deepEqual(bad, [
      'x.csv:1 line is not valid UTF-8 (its text is shown with U+FFFD where the bytes are invalid)',
    ]);
    assert.deepEqual(rows, [
      { id: 1, 'n\ufffdme': 'a' },
      { id: 2, 'n\ufffdme': 'b' },
    ]);
  } finally {
    cleanup();
  }
});

test('a byte order mark is skipped: JSON Lines line 1 and the CSV header are read, also after a restore', async () => {
  const { dir, cleanup } = tempDir('bytes');
  try {
    writeFileSync(join(dir, 'x.jsonl'), Buffer.concat([BOM, line('{"a":1}'), line('{"a":2}')]));
    const bad: string[] = [];
    const j = await readAll(new FileSourceReader({ path: 'x.jsonl', format: 'jsonl' }, ctx(dir, bad)));
    assert.deepEqual(j.rows, [{ a: 1 }, { a: 2 }]);

    writeFileSync(join(dir, 'x.csv'), Buffer.concat([BOM, line('id,name'), line('1,a'), line('2,b'), line('3,c')]));
    const cfg: FileSourceConfig = { path: 'x.csv', format: 'csv' };
    const r = new FileSourceReader(cfg, ctx(dir, bad));
    const first = await r.read(1);
    assert.deepEqual(first.rows, [{ id: 1, name: 'a' }]);
    const restored = new FileSourceReader(cfg, ctx(dir, bad), [r.position()]);
    assert.deepEqual((await readAll(restored)).rows, [
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ]);
    assert.deepEqual(bad, []);
    const sampled = inferFileColumns({ path: 'x.csv', format: 'csv' }, dir);
    assert.deepEqual(sampled.ok && sampled.columns.map((c) => c.name), ['id', 'name'], 'the sampled header too');
  } finally {
    cleanup();
  }
});
