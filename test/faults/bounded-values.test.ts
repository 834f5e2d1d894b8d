/**
 * Issue 11, items 7 and 8 through the real CLI: durations past Node's timer limit and event-time
 * spans or timestamps outside the exact range are validation errors with paths; an event time
 * outside the representable range is a bad record, counted and reported, never a silent loss; a
 * sink or checkpoint folder under /proc and a source that is a device or FIFO are refused at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommitted, runWeir, tempDir, writeJob } from '../engine/runtime/run-helpers.ts';

const fileJob = (source: string, sink: string, settings: Record<string, unknown> = {}) => ({
  format: 'weir.job/v1', name: 'bounded', settings: { parallelism: 1, ...settings },
  nodes: [
    { id: 'src', type: 'source.file', config: { path: source, format: 'jsonl', eventTime: { field: 'ts' } } },
    { id: 'out', type: 'sink.file', config: { path: sink, format: 'jsonl' } },
  ],
  edges: [{ from: 'src', to: 'out' }],
});

describe('faults: bounded values', () => {
  it('weir validate names every duration, span and timestamp out of range', async () => {
    const { dir, cleanup } = tempDir('faults-ranges');
    try {
      const job = writeJob(dir, {
        format: 'weir.job/v1', name: 'ranges',
        settings: { restart: { delay: '999999d' }, checkpointing: { interval: '25d', timeout: 2 ** 31 }, memoryStateLimit: '4gb' },
        nodes: [
          { id: 'g', type: 'source.generator', config: { count: 10, startTime: 1e300, eventTime: { field: 'ts', idleTimeout: '30d' } } },
          { id: 'w', type: 'window', config: { window: { kind: 'tumbling', size: 1e300 }, aggregates: 'COUNT(*) AS n', allowedLateness: '999999999d' } },
          { id: 'out', type: 'sink.file', config: { path: 'o', format: 'jsonl' } },
        ],
        edges: [{ from: 'g', to: 'w' }, { from: 'w', to: 'out' }],
      });
      const r = await runWeir(['validate', job], dir);
      assert.equal(r.code, 2);
      const out = r.stdout + r.stderr;
      for (const path of ['settings.restart.delay', 'settings.checkpointing.interval', 'settings.checkpointing.timeout', 'settings.memoryStateLimit',
        'nodes[0].config.startTime', 'nodes[0].config.eventTime.idleTimeout', 'nodes[1].config.window.size', 'nodes[1].config.allowedLateness']) {
        assert.ok(out.includes(`${path}: `), `${path} reported:\n${out}`);
      }
      assert.match(out, /settings\.restart\.delay: \d+ ms is too long: at most 2147483647 ms/);
      const run = await runWeir(['run', job], dir);
      assert.equal(run.code, 2, 'weir run refuses the same document');
    } finally { cleanup(); }
  });

  it('event times of 1e300 and -1e20 are bad records, counted and reported; the rest is committed', async () => {
    const { dir, cleanup } = tempDir('faults-eventtime');
    try {
      writeFileSync(join(dir, 'in.jsonl'), ['{"id":1,"ts":1700000000000}', '{"id":2,"ts":1e300}', '{"id":3,"ts":-1e20}', '{"id":4,"ts":1700000001000}'].join('\n') + '\n');
      const r = await runWeir(['run', writeJob(dir, fileJob('in.jsonl', 'out')), '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /in\.jsonl:2: field 'ts' = 1e\+300 is outside the representable event-time range/);
      assert.match(r.stderr, /in\.jsonl:3: field 'ts' = -100000000000000000000 is outside/);
      assert.match(r.stderr, /2 bad records skipped/);
      assert.deepEqual(readCommitted(join(dir, 'out')).map((l) => JSON.parse(l).id).sort(), [1, 4]);
    } finally { cleanup(); }
  });
});

describe('faults: paths that are not real files or folders', { skip: process.platform !== 'linux' ? 'Linux pseudo file systems' : undefined }, () => {
  for (const [what, source, sink, settings, message] of [
    ['a sink under /proc', 'in.jsonl', '/proc/weir-out', {}, /nodes\[1\]\.config\.path: \/proc\/weir-out is on \/proc/],
    ['a checkpoint folder under /proc', 'in.jsonl', 'out', { stateBackend: 'fs', checkpointing: { interval: '1s', dir: '/proc/self' } }, /settings\.checkpointing\.dir: .* is on \/proc/],
    ['a source of /dev/zero', '/dev/zero', 'out', {}, /nodes\[0\]\.config\.path: \/dev\/zero is on \/dev; a file source reads regular files only/],
    ['a FIFO source', 'fifo', 'out', {}, /nodes\[0\]\.config\.path: .*fifo is not a regular file/],
  ] as const) {
    it(`${what} is refused at once`, async () => {
      const { dir, cleanup } = tempDir('faults-pseudo');
      try {
        writeFileSync(join(dir, 'in.jsonl'), '{"id":1,"ts":1}\n');
        if (source === 'fifo') execFileSync('mkfifo', [join(dir, 'fifo')]);
        const started = Date.now();
        const r = await runWeir(['run', writeJob(dir, fileJob(source, sink, settings)), '--quiet'], dir, 60_000);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, message);
        assert.ok(Date.now() - started < 30_000, 'refused, not hung');
      } finally { cleanup(); }
    });
  }
});

describe('faults: bad records', () => {
  it('weir run exits non-zero when every record of a source was bad, and --quiet still prints the summary', async () => {
    const { dir, cleanup } = tempDir('faults-allbad');
    try {
      writeFileSync(join(dir, 'in.jsonl'), ['{broken', '{"id":2,"ts":"yesterday"}', '[1,2]'].join('\n') + '\n');
      const r = await runWeir(['run', writeJob(dir, fileJob('in.jsonl', 'out')), '--quiet'], dir);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /3 bad records skipped; first: in\.jsonl:1: invalid JSON/);
      assert.match(r.stderr, /every record of source 'src' \(3 bad\) was bad/);
    } finally { cleanup(); }
  });
});
