/**
 * source.file `follow: true` through log rotation, on real files (issue 23, item 5): like `tail -F`,
 * a truncated or replaced file is noticed, said in the run's log, and its new content is read from
 * its start; nothing written after the rotation is lost.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSourceReader } from '../../../engine/connectors/file-source.ts';
import type { SourceContext } from '../../../engine/contracts/source.ts';
import { tempDir } from '../../support/run-helpers.ts';

function ctx(dir: string, notices: string[]): SourceContext {
  return {
    subtask: 0,
    parallelism: 1,
    resolvePath: (p) => join(dir, p),
    badRecord: (w, m) => assert.fail(`unexpected bad record ${w}: ${m}`),
    notice: (m) => notices.push(m),
  };
}

const lines = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `${JSON.stringify({ v: from + i })}\n`).join('');

/** Reads until the reader waits at the end of its file (follow never ends). */
async function drain(r: FileSourceReader): Promise<unknown[]> {
  const out: unknown[] = [];
  for (;;) {
    const b = await r.read(50);
    out.push(...b.rows.map((x) => x.v));
    if (b.rows.length === 0 && b.waitMs !== undefined) return out;
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

test('follow: a truncated file is logged and read again from its start (copytruncate)', async () => {
  const { dir, cleanup } = tempDir('follow');
  try {
    const file = join(dir, 'app.log');
    writeFileSync(file, lines(0, 500));
    const notices: string[] = [];
    const r = new FileSourceReader({ path: 'app.log', format: 'jsonl', follow: true }, ctx(dir, notices));
    assert.deepEqual(await drain(r), range(0, 500));
    truncateSync(file, 0);
    assert.deepEqual(await drain(r), [], 'nothing to read in an empty file');
    appendFileSync(file, lines(500, 800));
    assert.deepEqual(await drain(r), range(500, 800), 'the 300 rows written after the truncation');
    assert.equal(notices.length, 1);
    assert.match(
      notices[0],
      /^source\.file app\.log: truncated to 0 bytes after \d+ were read; reading it again from its start$/,
    );
    await r.close();
  } finally {
    cleanup();
  }
});

test('follow: a replaced file is logged, the old one is finished, the new one read from its start (create)', async () => {
  const { dir, cleanup } = tempDir('follow');
  try {
    const file = join(dir, 'app.log');
    writeFileSync(file, `${lines(0, 500)}{"v":500}`); // the last line never got its newline
    const notices: string[] = [];
    const r = new FileSourceReader({ path: 'app.log', format: 'jsonl', follow: true }, ctx(dir, notices));
    assert.deepEqual(await drain(r), range(0, 500));
    renameSync(file, join(dir, 'app.log.1'));
    assert.deepEqual(await drain(r), [], 'moved away, nothing new yet: the old file is kept');
    writeFileSync(file, lines(501, 801));
    assert.deepEqual(await drain(r), range(500, 801), 'the old last line, then the new file from its start');
    assert.equal(notices.length, 1);
    assert.match(
      notices[0],
      /^source\.file app\.log: replaced by a new file \(inode \d+ -> \d+\); reading the new file/,
    );
    // The position is the new file's: a reader restored from it continues there.
    appendFileSync(file, lines(801, 810));
    const again = new FileSourceReader({ path: 'app.log', format: 'jsonl', follow: true }, ctx(dir, []), [
      r.position(),
    ]);
    assert.deepEqual(await drain(again), range(801, 810));
    await r.close();
    await again.close();
  } finally {
    cleanup();
  }
});

test('follow: restored past the end of a file rotated while the job was down, it reads the new file from its start', async () => {
  const { dir, cleanup } = tempDir('follow');
  try {
    const file = join(dir, 'app.log');
    writeFileSync(file, lines(0, 500));
    const r = new FileSourceReader({ path: 'app.log', format: 'jsonl', follow: true }, ctx(dir, []));
    await drain(r);
    const pos = r.position();
    await r.close();
    writeFileSync(file, lines(1000, 1010));
    const notices: string[] = [];
    const again = new FileSourceReader({ path: 'app.log', format: 'jsonl', follow: true }, ctx(dir, notices), [pos]);
    assert.deepEqual(await drain(again), range(1000, 1010));
    assert.match(
      notices[0] ?? '',
      /app\.log has \d+ bytes, fewer than the \d+ already read from it; reading it from its start/,
    );
    await again.close();
  } finally {
    cleanup();
  }
});

test('follow: CSV reads the header of the new file after a rotation', async () => {
  const { dir, cleanup } = tempDir('follow');
  try {
    const file = join(dir, 'app.csv');
    writeFileSync(file, 'a,b\n1,x\n2,y\n');
    const r = new FileSourceReader({ path: 'app.csv', format: 'csv', follow: true }, ctx(dir, []));
    const rows = async () => {
      const out: unknown[] = [];
      for (;;) {
        const b = await r.read(50);
        out.push(...b.rows);
        if (b.rows.length === 0 && b.waitMs !== undefined) return out;
      }
    };
    assert.equal((await rows()).length, 2);
    renameSync(file, join(dir, 'app.csv.1'));
    writeFileSync(file, 'b,a\nz,3\n');
    assert.deepEqual(await rows(), [{ b: 'z', a: 3 }]);
    await r.close();
  } finally {
    cleanup();
  }
});

test('follow: a byte order mark written into a file that was empty when opened is skipped', async () => {
  const { dir, cleanup } = tempDir('follow');
  try {
    const file = join(dir, 'app.log');
    writeFileSync(file, '');
    const r = new FileSourceReader({ path: 'app.log', format: 'jsonl', follow: true }, ctx(dir, []));
    assert.deepEqual(await drain(r), []);
    appendFileSync(file, Buffer.from([0xef, 0xbb]));
    assert.deepEqual(await drain(r), [], 'half a mark: nothing yet');
    appendFileSync(file, Buffer.concat([Buffer.from([0xbf]), Buffer.from(lines(0, 3))]));
    assert.deepEqual(await drain(r), [0, 1, 2]);
    await r.close();
  } finally {
    cleanup();
  }
});
