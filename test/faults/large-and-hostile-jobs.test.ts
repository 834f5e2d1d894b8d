/**
 * Issue 23 items 9 and 10 against real `weir` processes: a long chain of operators runs to the end
 * with exact output (the quadratic planning and wiring that made a 2,000-node chain take minutes
 * are gone; their cost is measured by `npm run bench -- large-graphs`, not timed here), and jobs
 * built to exhaust memory or the parser are refused by `weir validate` and `weir run` with the limit
 * named and the place in the job, never a stack trace or a crash at run time.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonical, readCommitted, runWeir, tempDir, writeJob } from '../support/run-helpers.ts';

const RECORDS = 1000;

function settings() {
  return { parallelism: 1, checkpointing: { interval: '200ms', dir: 'checkpoints' }, restart: { attempts: 0 } };
}

/** in.jsonl -> N maps (each adds 1 to v) -> out. */
function chainJob(n: number) {
  const nodes: unknown[] = [{ id: 'src', type: 'source.file', config: { path: 'in.jsonl', format: 'jsonl' } }];
  const edges: unknown[] = [];
  let prev = 'src';
  for (let i = 0; i < n; i++) {
    nodes.push({ id: `m${i}`, type: 'map', config: { select: 'id, v + 1 AS v' } });
    edges.push({ from: prev, to: `m${i}` });
    prev = `m${i}`;
  }
  nodes.push({ id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } });
  edges.push({ from: prev, to: 'out' });
  return { format: 'weir.job/v1', name: `chain-${n}`, settings: settings(), nodes, edges };
}

function oneNodeJob(node: Record<string, unknown>) {
  return {
    format: 'weir.job/v1',
    name: 'hostile',
    settings: settings(),
    nodes: [
      { id: 'src', type: 'source.file', config: { path: 'in.jsonl', format: 'jsonl', eventTime: { field: 'ts' } } },
      { id: 'x', ...node },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'src', to: 'x' },
      { from: 'x', to: 'out' },
    ],
  };
}

function writeInput(dir: string): void {
  const lines = Array.from({ length: RECORDS }, (_, i) => JSON.stringify({ id: i, v: 0, ts: 1_700_000_000_000 + i }));
  writeFileSync(join(dir, 'in.jsonl'), lines.join('\n') + '\n');
}

describe('faults: large and hostile jobs (issue 23, items 9 and 10)', () => {
  it('a chain of 5,000 map nodes runs 1,000 records to the end, each through every node', async () => {
    const { dir, cleanup } = tempDir('faults-chain');
    try {
      writeInput(dir);
      writeJob(dir, chainJob(5000));
      const r = await runWeir(['run', 'job.json', '--quiet'], dir, 600_000);
      assert.equal(r.code, 0, r.stderr);
      const expected = Array.from({ length: RECORDS }, (_, i) => canonical({ id: i, v: 5000 })).sort();
      assert.deepEqual(readCommitted(join(dir, 'out')).map(canonical).sort(), expected);
    } finally {
      cleanup();
    }
  });

  const refusals: Array<{ what: string; node: Record<string, unknown>; message: RegExp }> = [
    {
      what: 'a sliding window of 10 days sliding by 1 ms (864,000,000 windows per record)',
      node: {
        type: 'window',
        config: { window: { kind: 'sliding', size: '10d', slide: '1ms' }, aggregates: 'COUNT(*) AS n' },
      },
      message: /nodes\[1\]\.config\.window: .*864,?000,?000 windows.*at most 10,?000/,
    },
    {
      what: 'an expression nested 10,000 deep',
      node: { type: 'filter', config: { where: `${'('.repeat(10_000)}v${')'.repeat(10_000)} > 1` } },
      message: /nodes\[1\]\.config\.where: expression nested more than 64 deep/,
    },
    {
      what: 'a 10 MB string literal',
      node: { type: 'map', config: { select: `'${'x'.repeat(10_000_000)}' AS s` } },
      message: /nodes\[1\]\.config\.select: expression text is 10,000,00\d characters long; at most 100,000/,
    },
  ];

  for (const c of refusals) {
    it(`${c.what}: refused by validate and by run with the limit named, nothing written`, async () => {
      const { dir, cleanup } = tempDir('faults-hostile');
      try {
        writeInput(dir);
        writeJob(dir, oneNodeJob(c.node));
        for (const args of [
          ['validate', 'job.json'],
          ['run', 'job.json', '--quiet'],
        ]) {
          const r = await runWeir(args, dir);
          assert.notEqual(r.code, 0, `${args[0]} refuses`);
          const text = r.stdout + r.stderr;
          assert.match(text, c.message, `${args[0]}: ${text.slice(0, 400)}`);
          assert.doesNotMatch(text, /\n\s+at .*\.(ts|js|mjs):\d+/, 'no stack trace');
          assert.ok(text.length < 5000, `a short message, not the job echoed back (${text.length} chars)`);
        }
        assert.deepEqual(readCommitted(join(dir, 'out')), [], 'nothing written');
      } finally {
        cleanup();
      }
    });
  }
});
