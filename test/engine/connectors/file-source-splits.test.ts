/**
 * source.file splits (engine/connectors/file-splits.ts): a big JSON Lines file cut into byte
 * ranges read by several subtasks, every line exactly once, positions per split restored at any
 * parallelism, and line numbers of bad records counted in the whole file. Small files are cut with
 * a small split size passed to the reader (production cuts every 8 MiB).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSourceReader } from '../../../engine/connectors/file-source.ts';
import type { SourceContext } from '../../../engine/contracts/source.ts';
import type { FileSourceConfig } from '../../../engine/graph/types.ts';
import { tempDir } from '../../support/run-helpers.ts';

const SPLIT = 97;
const CFG: FileSourceConfig = { path: 'x.jsonl', format: 'jsonl', eventTime: { field: 'ts' } };

function ctx(dir: string, subtask = 0, parallelism = 1, bad: string[] = []): SourceContext {
  return { subtask, parallelism, resolvePath: (p) => join(dir, p), badRecord: (w, m) => bad.push(`${w} ${m}`) };
}

/** Lines of varied length (some multi-byte, some CRLF), so cut points fall anywhere in a line. */
function writeInput(dir: string, n: number): void {
  const lines = Array.from({ length: n }, (_, i) => {
    const pad = i % 7 === 3 ? 'zoë'.repeat(i % 5) : 'x'.repeat((i * 13) % 40);
    return JSON.stringify({ i, ts: 1_700_000_000_000 + i, pad }) + (i % 11 === 5 ? '\r' : '');
  });
  writeFileSync(join(dir, 'x.jsonl'), lines.join('\n') + '\n');
}

async function readSome(r: FileSourceReader, batches: number, max = 4): Promise<{ rows: number[]; end: boolean }> {
  const rows: number[] = [];
  for (let b = 0; b < batches; b++) {
    const got = await r.read(max);
    rows.push(...got.rows.map((x) => x.i as number));
    if (got.end) return { rows, end: true };
  }
  return { rows, end: false };
}

const readers = (dir: string, p: number, restored: unknown[] = [], columns?: string[]) =>
  Array.from({ length: p }, (_, s) => new FileSourceReader(CFG, ctx(dir, s, p), restored, columns ?? null, SPLIT));

test('one file cut into splits: at parallelism 1, 2 and 3 every line is read once, each subtask in file order', async () => {
  const { dir, cleanup } = tempDir('fsplit');
  try {
    writeInput(dir, 200);
    for (const p of [1, 2, 3]) {
      for (const columns of [undefined, ['i', 'ts']]) {
        const all: number[] = [];
        for (const r of readers(dir, p, [], columns)) {
          const { rows } = await readSome(r, 10_000);
          for (let k = 1; k < rows.length; k++) assert.ok(rows[k] > rows[k - 1], `subtask rows in file order (p=${p})`);
          all.push(...rows);
        }
        assert.deepEqual(
          all.sort((a, b) => a - b),
          Array.from({ length: 200 }, (_, i) => i),
          `parallelism ${p}`,
        );
      }
    }
    const keys = Object.keys(readers(dir, 1)[0].position().inputs);
    assert.ok(keys.length > 10, `the file is cut (${keys.length} splits)`);
    assert.equal(keys[0], '.');
    assert.match(keys[1], /^\.\/\d+$/);
  } finally {
    cleanup();
  }
});

test('positions per split: a checkpoint taken at parallelism 2 restores at 3 and at 1 with every line exactly once', async () => {
  const { dir, cleanup } = tempDir('fsplit');
  try {
    writeInput(dir, 300);
    for (const restoreAt of [1, 3]) {
      const first = readers(dir, 2);
      const before: number[] = [];
      for (const [s, r] of first.entries()) before.push(...(await readSome(r, 3 + 4 * s)).rows);
      const checkpoint = first.map((r) => r.position());
      const after: number[] = [];
      for (const r of readers(dir, restoreAt, checkpoint)) after.push(...(await readSome(r, 10_000)).rows);
      assert.ok(before.length > 0 && after.length > 0);
      assert.deepEqual(
        [...before, ...after].sort((a, b) => a - b),
        Array.from({ length: 300 }, (_, i) => i),
        `restored at parallelism ${restoreAt}`,
      );
    }
  } finally {
    cleanup();
  }
});

test('a checkpoint of the whole file (no split keys: an older version) resumes the file as one split', async () => {
  const { dir, cleanup } = tempDir('fsplit');
  try {
    writeInput(dir, 100);
    // Read unsplit (split size larger than the file), as an older version did.
    const old = new FileSourceReader(CFG, ctx(dir), [], null, 1 << 30);
    const before = (await readSome(old, 8)).rows;
    const pos = old.position();
    assert.deepEqual(Object.keys(pos.inputs), ['.']);
    assert.ok(pos.inputs['.'].offset > SPLIT * 3, 'the position is past several cut points');
    const after: number[] = [];
    for (const r of readers(dir, 2, [pos])) after.push(...(await readSome(r, 10_000)).rows);
    assert.deepEqual(
      [...before, ...after],
      Array.from({ length: 100 }, (_, i) => i),
    );
  } finally {
    cleanup();
  }
});

test('a bad line in a later split is reported with its line number in the file', async () => {
  const { dir, cleanup } = tempDir('fsplit');
  try {
    const lines = Array.from({ length: 60 }, (_, i) => JSON.stringify({ i, ts: 1_700_000_000_000 + i }));
    lines[47] = 'not json';
    writeFileSync(join(dir, 'x.jsonl'), lines.join('\n') + '\n');
    const bad: string[] = [];
    const cfg: FileSourceConfig = { ...CFG, onBadRecord: 'skip' };
    let rows = 0;
    for (let s = 0; s < 2; s++) {
      const r = new FileSourceReader(cfg, ctx(dir, s, 2, bad), [], null, SPLIT);
      rows += (await readSome(r, 10_000)).rows.length;
    }
    assert.equal(rows, 59);
    assert.equal(bad.length, 1);
    assert.match(bad[0], /^x\.jsonl:48 invalid JSON/);
  } finally {
    cleanup();
  }
});
