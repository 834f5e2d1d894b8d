import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inferFileColumns, splitCsvLine } from '../../../../engine/export/flink-sql/infer-columns.ts';

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'weir-flink-infer-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('JSON Lines: columns in first-seen order, types widened over the sample', () => {
  withDir((dir) => {
    writeFileSync(
      join(dir, 'a.jsonl'),
      [
        '{"id":1,"price":10,"name":"x","ok":true,"ts":"2024-01-01T00:00:00Z","n":null}',
        'not json',
        '{"id":2,"price":10.5,"name":7,"ok":false,"extra":{"a":1}}',
        '',
      ].join('\n'),
    );
    const r = inferFileColumns({ path: 'a.jsonl', format: 'jsonl' }, dir);
    assert.deepEqual(r, {
      ok: true,
      columns: [
        { name: 'id', type: 'BIGINT' },
        { name: 'price', type: 'DOUBLE' },
        { name: 'name', type: 'STRING' },
        { name: 'ok', type: 'BOOLEAN' },
        { name: 'ts', type: 'STRING' },
        { name: 'n', type: 'STRING' },
        { name: 'extra', type: 'STRING' },
      ],
    });
  });
});

test('CSV: the header gives names and order, values give types', () => {
  withDir((dir) => {
    writeFileSync(join(dir, 'b.csv'), 'user,qty,price,flag,note\nal,3,1.5,true,"a, b"\nbo,,2,false,""\n');
    const r = inferFileColumns({ path: 'b.csv', format: 'csv' }, dir);
    assert.deepEqual(r, {
      ok: true,
      columns: [
        { name: 'user', type: 'STRING' },
        { name: 'qty', type: 'BIGINT' },
        { name: 'price', type: 'DOUBLE' },
        { name: 'flag', type: 'BOOLEAN' },
        { name: 'note', type: 'STRING' },
      ],
    });
    assert.deepEqual(splitCsvLine('a,"b ""c"", d",'), ['a', 'b "c", d', '']);
  });
});

test('a folder is sampled through its first data file; missing or empty data is an error', () => {
  withDir((dir) => {
    mkdirSync(join(dir, 'parts'));
    writeFileSync(join(dir, 'parts', '.part-0.inprogress'), '{"hidden":1}\n');
    writeFileSync(join(dir, 'parts', 'part-1.jsonl'), '{"b":1}\n');
    writeFileSync(join(dir, 'parts', 'part-0.jsonl'), '{"a":1}\n');
    assert.deepEqual(inferFileColumns({ path: 'parts', format: 'jsonl' }, dir), {
      ok: true,
      columns: [{ name: 'a', type: 'BIGINT' }],
    });
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const empty = inferFileColumns({ path: 'empty.jsonl', format: 'jsonl' }, dir);
    assert.equal(empty.ok, false);
    const missing = inferFileColumns({ path: 'nope.jsonl', format: 'jsonl' }, dir);
    assert.ok(!missing.ok && /cannot read nope\.jsonl/.test(missing.message));
  });
});
