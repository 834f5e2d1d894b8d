/**
 * Issue 11, items 7 and 8 through the real CLI: durations past Node's timer limit and event-time
 * spans or timestamps outside the exact range are validation errors with paths; an event time
 * outside the representable range is a bad record, counted and reported, never a silent loss; a
 * sink or checkpoint folder under /proc and a source that is a device or FIFO are refused at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommitted, runWeir, tempDir, writeJob } from '../support/run-helpers.ts';

const fileJob = (source: string, sink: string, settings: Record<string, unknown> = {}) => ({
  format: 'weir.job/v1',
  name: 'bounded',
  settings: { parallelism: 1, ...settings },
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
        format: 'weir.job/v1',
        name: 'ranges',
        settings: {
          restart: { delay: '999999d' },
          checkpointing: { interval: '25d', timeout: 2 ** 31 },
          memoryStateLimit: '4gb',
        },
        nodes: [
          {
            id: 'g',
            type: 'source.generator',
            config: { count: 10, startTime: 1e300, eventTime: { field: 'ts', idleTimeout: '30d' } },
          },
          {
            id: 'w',
            type: 'window',
            config: {
              window: { kind: 'tumbling', size: 1e300 },
              aggregates: 'COUNT(*) AS n',
              allowedLateness: '999999999d',
            },
          },
          { id: 'out', type: 'sink.file', config: { path: 'o', format: 'jsonl' } },
        ],
        edges: [
          { from: 'g', to: 'w' },
          { from: 'w', to: 'out' },
        ],
      });
      const r = await runWeir(['validate', job], dir);
      assert.equal(r.code, 2);
      const out = r.stdout + r.stderr;
      for (const path of [
        'settings.restart.delay',
        'settings.checkpointing.interval',
        'settings.checkpointing.timeout',
        'settings.memoryStateLimit',
        'nodes[0].config.startTime',
        'nodes[0].config.eventTime.idleTimeout',
        'nodes[1].config.window.size',
        'nodes[1].config.allowedLateness',
      ]) {
        assert.ok(out.includes(`${path}: `), `${path} reported:\n${out}`);
      }
      assert.match(out, /settings\.restart\.delay: \d+ ms is too long: at most 2147483647 ms/);
      const run = await runWeir(['run', job], dir);
      assert.equal(run.code, 2, 'weir run refuses the same document');
    } finally {
      cleanup();
    }
  });

  it('event times of 1e300 and -1e20 are bad records, counted and reported; the rest is committed', async () => {
    const { dir, cleanup } = tempDir('faults-eventtime');
    try {
      writeFileSync(
        join(dir, 'in.jsonl'),
        [
          '{"id":1,"ts":1700000000000}',
          '{"id":2,"ts":1e300}',
          '{"id":3,"ts":-1e20}',
          '{"id":4,"ts":1700000001000}',
        ].join('\n') + '\n',
      );
      const r = await runWeir(['run', writeJob(dir, fileJob('in.jsonl', 'out')), '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /in\.jsonl:2: field 'ts' = 1e\+300 is outside the representable event-time range/);
      assert.match(r.stderr, /in\.jsonl:3: field 'ts' = -100000000000000000000 is outside/);
      assert.match(r.stderr, /2 bad records; first:/);
      assert.deepEqual(
        readCommitted(join(dir, 'out'))
          .map((l) => JSON.parse(l).id)
          .sort(),
        [1, 4],
      );
    } finally {
      cleanup();
    }
  });
});

describe('faults: an over-long line', () => {
  it('a line past 16 MB is a bad record, read past without buffering it; the lines around it are committed', async () => {
    const { dir, cleanup } = tempDir('faults-longline');
    try {
      const long = 'x'.repeat(17 << 20);
      writeFileSync(join(dir, 'in.jsonl'), `{"id":1,"ts":1}\n${long}\n{"id":3,"ts":3}\n`);
      const r = await runWeir(['run', writeJob(dir, fileJob('in.jsonl', 'out')), '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /1 bad record; first: in\.jsonl:2: line of 17825793 bytes is longer than 16777216 bytes/);
      assert.deepEqual(
        readCommitted(join(dir, 'out')).map((l) => JSON.parse(l).id),
        [1, 3],
      );
    } finally {
      cleanup();
    }
  });
});

describe(
  'faults: paths that are not real files or folders',
  { skip: process.platform !== 'linux' ? 'Linux pseudo file systems' : undefined },
  () => {
    for (const [what, source, sink, settings, message] of [
      [
        'a sink under /proc',
        'in.jsonl',
        '/proc/weir-out',
        {},
        /nodes\[1\]\.config\.path: \/proc\/weir-out is on \/proc/,
      ],
      [
        'a checkpoint folder under /proc',
        'in.jsonl',
        'out',
        { stateBackend: 'fs', checkpointing: { interval: '1s', dir: '/proc/self' } },
        /settings\.checkpointing\.dir: .* is on \/proc/,
      ],
      [
        'a source of /dev/zero',
        '/dev/zero',
        'out',
        {},
        /nodes\[0\]\.config\.path: \/dev\/zero is on \/dev; a file source reads regular files only/,
      ],
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
        } finally {
          cleanup();
        }
      });
    }
  },
);

describe('faults: bad records', () => {
  it('weir run exits non-zero when every record of a source was bad, and --quiet still prints the summary', async () => {
    const { dir, cleanup } = tempDir('faults-allbad');
    try {
      writeFileSync(join(dir, 'in.jsonl'), ['{broken', '{"id":2,"ts":"yesterday"}', '[1,2]'].join('\n') + '\n');
      const r = await runWeir(['run', writeJob(dir, fileJob('in.jsonl', 'out')), '--quiet'], dir);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /3 bad records; first: in\.jsonl:1: invalid JSON/);
      assert.match(r.stderr, /every record of source 'src' \(3 bad\) was bad/);
    } finally {
      cleanup();
    }
  });
});

describe('faults: dead letters', () => {
  const deadLetterJob = (edges: unknown[], onBadRecord = 'dead-letter', withWindow = false) => ({
    format: 'weir.job/v1',
    name: 'dl',
    settings: { parallelism: 2, stateBackend: 'fs', checkpointing: { interval: '50ms' } },
    nodes: [
      {
        id: 'src',
        type: 'source.file',
        config: { path: 'in', format: 'jsonl', onBadRecord, eventTime: { field: 'ts' } },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
      { id: 'dead', type: 'sink.file', config: { path: 'dead', format: 'jsonl' } },
      ...(withWindow
        ? [
            {
              id: 'win',
              type: 'window',
              config: { window: { kind: 'tumbling', size: '1s' }, aggregates: 'COUNT(*) AS n' },
            },
          ]
        : []),
    ],
    edges,
  });

  it("onBadRecord 'dead-letter' writes every bad record once, with file, line and reason, through the bad port", async () => {
    const { dir, cleanup } = tempDir('faults-deadletter');
    try {
      // Two files (one per source subtask), 300 lines each, every 7th line bad in one of three ways.
      const expectedBad: string[] = [];
      const expectedGood: number[] = [];
      for (const f of ['a.jsonl', 'b.jsonl']) {
        const lines: string[] = [];
        for (let i = 1; i <= 300; i++) {
          const id = (f === 'a.jsonl' ? 0 : 1000) + i;
          if (i % 7 === 0) {
            const bad = [`{broken ${id}`, `{"id":${id},"ts":"soon"}`, `{"id":${id},"ts":1e300}`][i % 3];
            lines.push(bad);
            expectedBad.push(`${f}:${i}:${bad}`);
          } else {
            lines.push(JSON.stringify({ id, ts: 1_700_000_000_000 + i }));
            expectedGood.push(id);
          }
        }
        mkdirSync(join(dir, 'in'), { recursive: true });
        writeFileSync(join(dir, 'in', f), lines.join('\n') + '\n');
      }
      const job = writeJob(
        dir,
        deadLetterJob([
          { from: 'src', to: 'out' },
          { from: 'src', fromPort: 'bad', to: 'dead' },
        ]),
      );
      const r = await runWeir(['run', job, '--quiet'], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`${expectedBad.length} bad records; first:`));
      assert.deepEqual(
        readCommitted(join(dir, 'out'))
          .map((l) => JSON.parse(l).id)
          .sort((a, b) => a - b),
        expectedGood,
      );
      const dead = readCommitted(join(dir, 'dead')).map(
        (l) => JSON.parse(l) as { file: string; line: number; reason: string; text: string },
      );
      for (const d of dead) assert.ok(d.reason.length > 0 && d.file.endsWith('.jsonl'), JSON.stringify(d));
      assert.deepEqual(
        dead.map((d) => `${d.file.split('/').pop()}:${d.line}:${d.text}`).sort(),
        [...expectedBad].sort(),
      );
    } finally {
      cleanup();
    }
  });

  it('validation: dead-letter needs a bad edge; a bad edge needs dead-letter and a sink', async () => {
    const { dir, cleanup } = tempDir('faults-deadletter-rules');
    try {
      const cases: Array<[unknown, RegExp]> = [
        [
          deadLetterJob([{ from: 'src', to: 'out' }]),
          /nodes\[0\]\.config\.onBadRecord: 'dead-letter' needs an edge from this source's 'bad' port/,
        ],
        [
          deadLetterJob(
            [
              { from: 'src', to: 'out' },
              { from: 'src', fromPort: 'bad', to: 'dead' },
            ],
            'skip',
          ),
          /edges\[1\]\.fromPort: source 'src' sends nothing on 'bad'/,
        ],
        [
          deadLetterJob(
            [
              { from: 'src', to: 'out' },
              { from: 'src', fromPort: 'bad', to: 'win' },
              { from: 'win', to: 'dead' },
            ],
            'dead-letter',
            true,
          ),
          /edges\[1\]\.to: dead letters from 'src' \(port 'bad'\) can only go to a sink/,
        ],
      ];
      for (const [doc, message] of cases) {
        const r = await runWeir(['validate', writeJob(dir, doc)], dir);
        assert.equal(r.code, 2);
        assert.match(r.stdout + r.stderr, message);
      }
    } finally {
      cleanup();
    }
  });
});
