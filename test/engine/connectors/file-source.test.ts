/** source.file: byte-offset positions, restore mid-file, CSV typing, folders, follow mode, bad lines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSourceReader } from '../../../engine/connectors/file-source.ts';
import type { SourceContext } from '../../../engine/contracts/source.ts';
import type { FileSourceConfig } from '../../../engine/graph/types.ts';
import { tempDir } from '../../support/run-helpers.ts';

function ctx(dir: string, bad: string[] = [], subtask = 0, parallelism = 1): SourceContext {
  return { subtask, parallelism, resolvePath: (p) => join(dir, p), badRecord: (w, m) => bad.push(`${w} ${m}`) };
}

async function readAll(r: FileSourceReader, max = 3): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (;;) {
    const b = await r.read(max);
    out.push(...b.rows);
    if (b.end) return out;
  }
}

test('jsonl: batches never split records; a reader restored at a position continues with the next record', async () => {
  const { dir, cleanup } = tempDir('fsrc');
  try {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ i, ts: `2024-01-01T00:00:0${i}Z` }));
    writeFileSync(join(dir, 'x.jsonl'), lines.join('\n')); // no newline at the end
    const cfg: FileSourceConfig = { path: 'x.jsonl', format: 'jsonl', eventTime: { field: 'ts' } };
    const r = new FileSourceReader(cfg, ctx(dir));
    const first = await r.read(4);
    assert.deepEqual(
      first.rows.map((x) => x.i),
      [0, 1, 2, 3],
    );
    assert.equal(first.ts[1], Date.UTC(2024, 0, 1, 0, 0, 1));
    const pos = r.position();
    const r2 = new FileSourceReader(cfg, ctx(dir), [pos]);
    assert.deepEqual(
      (await readAll(r2)).map((x) => x.i),
      [4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(
      (await readAll(r)).map((x) => x.i),
      [4, 5, 6, 7, 8, 9],
    );
  } finally {
    cleanup();
  }
});

test('csv with header, declared and inferred types; restore re-reads the header', async () => {
  const { dir, cleanup } = tempDir('fsrc');
  try {
    writeFileSync(join(dir, 'x.csv'), 'id,name,amount,ok\n1,"a, b",2.5,true\n2,"say ""hi""",,false\n3,c,7,true\n');
    const cfg: FileSourceConfig = { path: 'x.csv', format: 'csv', columns: { id: 'STRING' } };
    const r = new FileSourceReader(cfg, ctx(dir));
    const a = await r.read(2);
    assert.deepEqual(a.rows, [
      { id: '1', name: 'a, b', amount: 2.5, ok: true },
      { id: '2', name: 'say "hi"', amount: null, ok: false },
    ]);
    const r2 = new FileSourceReader(cfg, ctx(dir), [r.position()]);
    assert.deepEqual(await readAll(r2), [{ id: '3', name: 'c', amount: 7, ok: true }]);
  } finally {
    cleanup();
  }
});

test('a folder: every visible file, split over subtasks; bad lines reported with file:line', async () => {
  const { dir, cleanup } = tempDir('fsrc');
  try {
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'a.jsonl'), '{"v":1}\nnot json\n{"v":2}\n');
    writeFileSync(join(dir, 'in', 'b.jsonl'), '{"v":3}\n[1]\n');
    writeFileSync(join(dir, 'in', '.hidden.jsonl'), '{"v":99}\n');
    const bad: string[] = [];
    const s0 = await readAll(new FileSourceReader({ path: 'in', format: 'jsonl' }, ctx(dir, bad, 0, 2)));
    const s1 = await readAll(new FileSourceReader({ path: 'in', format: 'jsonl' }, ctx(dir, bad, 1, 2)));
    assert.deepEqual(
      s0.map((x) => x.v),
      [1, 2],
    );
    assert.deepEqual(
      s1.map((x) => x.v),
      [3],
    );
    assert.deepEqual(
      bad.map((b) => b.split(' ')[0]),
      ['a.jsonl:2', 'b.jsonl:2'],
    );
    await assert.rejects(
      readAll(new FileSourceReader({ path: 'in', format: 'jsonl', onBadRecord: 'fail' }, ctx(dir, [], 0, 2))),
      /a\.jsonl:2: invalid JSON/,
    );
  } finally {
    cleanup();
  }
});

test('follow: waits at the end of the file, never emits a half-written line, picks up appended data', async () => {
  const { dir, cleanup } = tempDir('fsrc');
  try {
    writeFileSync(join(dir, 'x.jsonl'), '{"v":1}\n{"v":');
    const r = new FileSourceReader({ path: 'x.jsonl', format: 'jsonl', follow: true }, ctx(dir));
    const a = await r.read(10);
    assert.deepEqual(a.rows, [{ v: 1 }]);
    assert.equal(a.end, false);
    const b = await r.read(10);
    assert.deepEqual(b.rows, []);
    assert.ok(b.waitMs! > 0);
    appendFileSync(join(dir, 'x.jsonl'), '2}\n{"v":3}\n');
    const c = await r.read(10);
    assert.deepEqual(c.rows, [{ v: 2 }, { v: 3 }]);
  } finally {
    cleanup();
  }
});
