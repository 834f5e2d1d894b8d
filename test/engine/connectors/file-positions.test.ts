/** source.file positions keyed by file name with a fingerprint (issue 23 item 1), and the old format. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSourceReader } from '../../../engine/connectors/file-source.ts';
import { inputMismatch, restoredPositions } from '../../../engine/connectors/file-positions.ts';
import type { SourceContext } from '../../../engine/contracts/source.ts';
import type { FileSourceConfig } from '../../../engine/graph/types.ts';
import { tempDir } from '../../support/run-helpers.ts';

function ctx(dir: string, notices: string[] = []): SourceContext {
  return {
    subtask: 0,
    parallelism: 1,
    resolvePath: (p) => join(dir, p),
    badRecord: () => {},
    notice: (m) => notices.push(m),
  };
}

async function readAll(r: FileSourceReader): Promise<number[]> {
  const out: number[] = [];
  for (;;) {
    const b = await r.read(100);
    out.push(...b.rows.map((x) => x.i as number));
    if (b.end || (b.rows.length === 0 && b.waitMs)) return out;
  }
}

const lines = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => JSON.stringify({ i: from + k })).join('\n') + '\n';

test('a folder moved, or spelled through a symlink, resumes at the same record; positions carry no absolute path', async () => {
  const { dir, cleanup } = tempDir('fpos-move');
  try {
    mkdirSync(join(dir, 'a', 'in'), { recursive: true });
    writeFileSync(join(dir, 'a', 'in', 'x.jsonl'), lines(0, 10));
    const cfg: FileSourceConfig = { path: 'in', format: 'jsonl' };
    const r = new FileSourceReader(cfg, ctx(join(dir, 'a')));
    assert.equal((await r.read(4)).rows.length, 4);
    const pos = r.position();
    assert.deepEqual(Object.keys(pos.inputs), ['x.jsonl']);
    assert.doesNotMatch(JSON.stringify(pos), new RegExp(dir));
    cpSync(join(dir, 'a'), join(dir, 'b'), { recursive: true }); // new inode, new mtime, same bytes
    const moved = new FileSourceReader(cfg, ctx(join(dir, 'b')), [pos]);
    assert.deepEqual(await readAll(moved), [4, 5, 6, 7, 8, 9]);
    assert.equal(inputMismatch(join(dir, 'b', 'in', 'x.jsonl'), pos.inputs['x.jsonl']), null);
    symlinkSync(join(dir, 'a'), join(dir, 'link')); // the same folder spelled through a symlink
    const linked = new FileSourceReader(cfg, ctx(join(dir, 'link')), [pos]);
    assert.deepEqual(await readAll(linked), [4, 5, 6, 7, 8, 9]);
  } finally {
    cleanup();
  }
});

test('another input is named with the reason: other bytes before the offset, or fewer bytes', () => {
  const { dir, cleanup } = tempDir('fpos-other');
  try {
    const f = join(dir, 'x.jsonl');
    writeFileSync(f, lines(0, 10));
    const r = new FileSourceReader({ path: 'x.jsonl', format: 'jsonl' }, ctx(dir));
    void r.read(5);
    const p = r.position().inputs['.'];
    writeFileSync(f, lines(100, 110));
    assert.match(inputMismatch(f, p) ?? '', /is not the file read before .*its bytes before offset \d+ differ/);
    writeFileSync(f, '{"i":0}\n');
    assert.match(inputMismatch(f, p) ?? '', /has 8 bytes, fewer than the \d+ already read/);
  } finally {
    cleanup();
  }
});

test('follow: a replaced file is read from its start, and said', async () => {
  const { dir, cleanup } = tempDir('fpos-follow');
  try {
    const f = join(dir, 'x.jsonl');
    writeFileSync(f, lines(0, 6));
    const cfg: FileSourceConfig = { path: 'x.jsonl', format: 'jsonl', follow: true };
    const r = new FileSourceReader(cfg, ctx(dir));
    assert.deepEqual(await readAll(r), [0, 1, 2, 3, 4, 5]);
    const pos = r.position();
    writeFileSync(f, lines(50, 60)); // rotated: longer, other bytes
    const notices: string[] = [];
    const again = new FileSourceReader(cfg, ctx(dir, notices), [pos]);
    assert.deepEqual(await readAll(again), [50, 51, 52, 53, 54, 55, 56, 57, 58, 59]);
    assert.match(notices.join('\n'), /is not the file read before.*reading it from its start/);
  } finally {
    cleanup();
  }
});

test('checkpoints of older versions (absolute paths) are read by file name', () => {
  const old = [{ files: { '/old/place/in/x.jsonl': { offset: 12, line: 2 } } }, { files: {} }];
  assert.deepEqual([...restoredPositions(old, true)], [['x.jsonl', { offset: 12, line: 2 }]]);
  assert.deepEqual([...restoredPositions(old, false)], [['.', { offset: 12, line: 2 }]]);
});
