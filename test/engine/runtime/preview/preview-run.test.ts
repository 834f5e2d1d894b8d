// A preview run drives the job's real operators over a sample with sinks off: every node's output,
// late and bad records are captured, windows fire at the end of the sample, nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { previewRun } from '../../../../engine/runtime/preview/preview-run.ts';
import { traceRecord } from '../../../../engine/runtime/preview/trace-record.ts';
import { validateJob } from '../../../../engine/graph/validate.ts';
import type { NormalizedJob } from '../../../../engine/graph/types.ts';
import { tempDir } from '../../../support/run-helpers.ts';

const T0 = Date.UTC(2024, 0, 1);

function normalized(doc: unknown, baseDir: string): NormalizedJob {
  const r = validateJob(doc, { baseDir });
  assert.ok(r.ok, JSON.stringify(r.problems ?? r));
  return r.job;
}

function fileJob(out = 'out') {
  return {
    format: 'weir.job/v1',
    name: 'preview',
    settings: { parallelism: 2 },
    nodes: [
      {
        id: 'src',
        type: 'source.file',
        config: { path: 'in.jsonl', format: 'jsonl', eventTime: { field: 'ts', maxOutOfOrderness: '0ms' } },
      },
      { id: 'big', type: 'filter', config: { where: 'amount > 10' } },
      {
        id: 'win',
        type: 'window',
        config: { keyBy: 'user', window: { kind: 'tumbling', size: '1s' }, aggregates: 'SUM(amount) AS total' },
      },
      { id: 'out', type: 'sink.file', config: { path: out, format: 'jsonl' } },
    ],
    edges: [
      { from: 'src', to: 'big' },
      { from: 'big', to: 'win' },
      { from: 'win', to: 'out' },
    ],
  };
}

test('preview: each node shows its rows; late and bad records stay with the node that saw them; nothing is written', async () => {
  const { dir, cleanup } = tempDir('preview');
  try {
    const lines = [
      { user: 'a', amount: 20, ts: T0 + 100 },
      { user: 'b', amount: 5, ts: T0 + 200 },
      { user: 'a', amount: 30, ts: T0 + 1500 },
      { user: 'b', amount: 50, ts: T0 + 2500 },
    ].map((r) => JSON.stringify(r));
    // Line 5 is not JSON (a bad record). Watermarks follow each 64-record batch, so the late
    // record comes after a full batch of filler has moved the watermark past its window.
    const filler = Array.from({ length: 64 }, (_, i) => JSON.stringify({ user: 'c', amount: 11, ts: T0 + 3000 + i }));
    const late = JSON.stringify({ user: 'a', amount: 99, ts: T0 + 50 });
    writeFileSync(join(dir, 'in.jsonl'), [...lines, '{not json', ...filler, late].join('\n') + '\n');
    const job = normalized(fileJob(), dir);
    const r = await previewRun(job, { recordsPerSource: 1000 });

    assert.deepEqual(r.sources.src, { records: 69, ended: true });
    assert.equal(r.nodes.src.badRecords.length, 1, 'the line that is not JSON is a bad record of the source');
    assert.match(r.nodes.src.badRecords[0].where, /in\.jsonl:5/);
    assert.equal(r.nodes.big.rowsIn, 69);
    assert.equal(r.nodes.big.out.out!.count, 68, 'amount 5 filtered out');
    assert.equal(r.nodes.win.lateRecords, 1, 'the record behind the watermark is late at the window');
    const totals = r.nodes.win.out.out!.rows.map((x) => `${x.row.user}@${x.row.window_start}=${x.row.total}`).sort();
    assert.deepEqual(totals, [
      `a@${new Date(T0).toISOString()}=20`,
      `a@${new Date(T0 + 1000).toISOString()}=30`,
      `b@${new Date(T0 + 2000).toISOString()}=50`,
      `c@${new Date(T0 + 3000).toISOString()}=${64 * 11}`,
    ]);
    assert.equal(r.nodes.out.wouldWrite!.length, 4, 'the sink shows what it would write');
    assert.equal(existsSync(join(dir, 'out')), false, 'sinks are off: nothing written');
  } finally {
    cleanup();
  }
});

test('preview: an unbounded source stops at the sample size', async () => {
  const { dir, cleanup } = tempDir('preview-gen');
  try {
    const job = normalized(
      {
        format: 'weir.job/v1',
        name: 'gen',
        settings: {},
        nodes: [
          { id: 'gen', type: 'source.generator', config: { rate: 1000000, keys: 4 } },
          { id: 'agg', type: 'aggregate', config: { keyBy: 'key', aggregates: 'COUNT(*) AS n' } },
          { id: 'out', type: 'sink.preview', config: {} },
        ],
        edges: [
          { from: 'gen', to: 'agg' },
          { from: 'agg', to: 'out' },
        ],
      },
      dir,
    );
    const r = await previewRun(job, { recordsPerSource: 250, keepRows: 10_000 });
    assert.deepEqual(r.sources.gen, { records: 250, ended: false });
    assert.equal(r.nodes.agg.rowsIn, 250);
    // A changelog: the last +I/+U per key holds the count; they add up to the sample.
    const last = new Map<string, number>();
    for (const x of r.nodes.agg.out.out!.rows)
      if (x.kind === '+I' || x.kind === '+U') last.set(String(x.row.key), Number(x.row.n));
    assert.equal(
      [...last.values()].reduce((a, b) => a + b, 0),
      250,
    );
  } finally {
    cleanup();
  }
});

test('trace: a record shows the rows it passed, the window result it counted in, and the one it replaced', async () => {
  const { dir, cleanup } = tempDir('preview-trace');
  try {
    const rows = [
      { user: 'a', amount: 20, ts: T0 + 100 },
      { user: 'a', amount: 30, ts: T0 + 200 },
      { user: 'b', amount: 40, ts: T0 + 300 },
      { user: 'a', amount: 5, ts: T0 + 400 },
    ];
    writeFileSync(join(dir, 'in.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const job = normalized(fileJob(), dir);

    const t = await traceRecord(job, { source: 'src', index: 1 });
    assert.deepEqual(t.record?.row, rows[1]);
    assert.deepEqual(Object.keys(t.nodes), ['src', 'big', 'win', 'out'], 'every node on its path, in job order');
    assert.deepEqual(
      t.nodes.big.contributed.map((x) => x.row),
      [rows[1]],
    );
    const start = new Date(T0).toISOString();
    assert.deepEqual(
      t.nodes.win.contributed.map((x) => [x.row.user, x.row.window_start, x.row.total]),
      [['a', start, 50]],
      "user a's window counts it",
    );
    assert.deepEqual(
      t.nodes.win.replaced.map((x) => [x.row.user, x.row.total]),
      [['a', 20]],
      'without it the window would have said 20',
    );
    assert.equal(t.nodes.out.contributed[0].port, 'write');

    const filtered = await traceRecord(job, { source: 'src', index: 3 });
    assert.deepEqual(Object.keys(filtered.nodes), ['src'], 'amount 5 stops at the filter: no node after it changes');

    const beyond = await traceRecord(job, { source: 'src', index: 99 });
    assert.equal(beyond.record, null);
  } finally {
    cleanup();
  }
});
