/**
 * Property-based (fast-check): validating with a `ValidationCache` gives exactly what validating
 * from scratch gives. Example jobs (and the designer's 200-node fixture, smaller) take random
 * sequences of edits a user makes (a keystroke in an expression, a misspelled column, another
 * declared type, an edge removed or added, a node deleted, a source's sample changing); after
 * every edit the problems and the edge schemas computed with one cache that lives through all
 * runs equal those of a fresh validation without one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { validateJob } from '../../../engine/graph/validate.ts';
import { edgeSchemas } from '../../../engine/graph/edge-schemas.ts';
import { createValidationCache } from '../../../engine/graph/validation-cache.ts';
import type { JobDocument, JobNode } from '../../../engine/graph/types.ts';
import { largeJob } from '../../support/fixtures/large-job.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SEEDS: JobDocument[] = [
  ...readdirSync(join(ROOT, 'examples'))
    .map((n) => join(ROOT, 'examples', n, 'job.weir.json'))
    .filter((p) => existsSync(p))
    .map((p) => JSON.parse(readFileSync(p, 'utf8')) as JobDocument),
  ...['q5', 'q7', 'q8'].map(
    (q) => JSON.parse(readFileSync(join(ROOT, 'examples', 'nexmark', `${q}.weir.json`), 'utf8')) as JobDocument,
  ),
  largeJob(2),
];

/** Texts a user may type into an expression field: valid, misspelled, mistyped, half-typed. */
const TEXTS = [
  'seq > 10',
  'sq > 10',
  'amount * 2 AS double_amount, user',
  'UPPER(seq) = 1',
  'COUNT(*) AS n, SUM(amount) AS total',
  'SUM(value) AS s, AVG(value) AS a',
  'user',
  'usr',
  'key, seq, ts',
  '*',
  '*, seq + 1 AS next',
  'L.order_id, R.method',
  'value + 1 > ',
  "key <> 'k1'",
  'price',
  'MAX(price) AS top',
];
const TYPES = ['BIGINT', 'DOUBLE', 'STRING', 'DECIMAL(10, 2)', 'BOOLEAN', 'TIMESTAMP(3)'];

type Edit =
  | { kind: 'text'; node: number; leaf: number; text: number; keep: number }
  | { kind: 'type'; node: number; leaf: number; type: number }
  | { kind: 'drop-edge'; edge: number }
  | { kind: 'add-edge'; from: number; to: number; late: boolean }
  | { kind: 'drop-node'; node: number }
  | { kind: 'sample'; type: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      node: fc.nat(),
      leaf: fc.nat(),
      text: fc.nat(TEXTS.length - 1),
      keep: fc.nat(30),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('type' as const),
      node: fc.nat(),
      leaf: fc.nat(),
      type: fc.nat(TYPES.length - 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop-edge' as const), edge: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('add-edge' as const), from: fc.nat(), to: fc.nat(), late: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop-node' as const), node: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sample' as const), type: fc.nat(TYPES.length - 1) }) },
);

/** Paths to the string leaves of a config, and to its declared column types. */
function leaves(v: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (typeof v === 'string') out.push(at);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, [...at, k], out);
  return out;
}

function setLeaf(config: unknown, path: string[], value: string): unknown {
  if (path.length === 0) return value;
  const [k, ...rest] = path;
  const obj = config as Record<string, unknown>;
  return { ...obj, [k]: setLeaf(obj[k], rest, value) };
}

/** One edit, as the designer makes it: a new document sharing every untouched node. */
function apply(job: JobDocument, e: Edit, sample: { type: string }): JobDocument {
  const n = job.nodes.length;
  switch (e.kind) {
    case 'text':
    case 'type': {
      if (n === 0) return job;
      const node = job.nodes[e.node % n];
      const paths = leaves(node.config).filter((p) =>
        e.kind === 'type' ? p[0] === 'columns' : p[0] !== 'columns' && p[0] !== 'path',
      );
      if (paths.length === 0) return job;
      const path = paths[e.leaf % paths.length];
      let value: string;
      if (e.kind === 'type') value = TYPES[e.type];
      else {
        // A keystroke: a prefix of the old text, or a whole new text.
        const old = path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], node.config) as string;
        value = e.keep < old.length ? old.slice(0, old.length - 1 - (e.keep % 3)) : TEXTS[e.text];
      }
      const nodes = job.nodes.slice();
      nodes[e.node % n] = { ...node, config: setLeaf(node.config, path, value) } as JobNode;
      return { ...job, nodes };
    }
    case 'drop-edge':
      return job.edges.length === 0
        ? job
        : { ...job, edges: job.edges.filter((_, i) => i !== e.edge % job.edges.length) };
    case 'add-edge': {
      if (n === 0) return job;
      const from = job.nodes[e.from % n].id;
      const to = job.nodes[e.to % n].id;
      return { ...job, edges: [...job.edges, { from, to, ...(e.late ? { fromPort: 'late' as const } : {}) }] };
    }
    case 'drop-node': {
      if (n <= 1) return job;
      const id = job.nodes[e.node % n].id;
      return {
        ...job,
        nodes: job.nodes.filter((x) => x.id !== id),
        edges: job.edges.filter((x) => x.from !== id && x.to !== id),
      };
    }
    case 'sample':
      sample.type = TYPES[e.type];
      return job;
  }
}

test('validation with a cache equals validation from scratch after random edits', () => {
  const cache = createValidationCache();
  fc.assert(
    fc.property(fc.nat(SEEDS.length - 1), fc.array(edit, { minLength: 1, maxLength: 12 }), (seed, edits) => {
      let job = SEEDS[seed];
      const sample = { type: 'BIGINT' };
      // A file source without declared columns gets sampled ones, whose type an edit may change.
      const sampled = (node: JobNode) =>
        node.type === 'source.file' && !(node.config as { columns?: unknown }).columns
          ? { id: sample.type, user: 'STRING', amount: sample.type, ts: 'BIGINT' }
          : undefined;
      for (const e of edits) {
        job = apply(job, e, sample);
        const fresh = validateJob(job, { sampled });
        const cached = validateJob(job, { sampled, cache });
        assert.deepEqual(cached.problems, fresh.problems, `problems after ${JSON.stringify(e)}`);
        assert.equal(cached.ok, fresh.ok);
        assert.deepEqual(edgeSchemas(job, { sampled, cache }), edgeSchemas(job, { sampled }));
      }
    }),
    { numRuns: 60, seed: 20261205 },
  );
  assert.ok(cache.types.hits > 0 && cache.columns.hits > 0, 'the cache was used');
});

test('a keystroke in one node re-checks that node and, downstream, only what its change reaches', () => {
  const cache = createValidationCache();
  const job = largeJob();
  validateJob(job, { cache });
  const i = job.nodes.findIndex((n) => n.id === 'filter-a-5');
  const nodes = job.nodes.slice();
  nodes[i] = { ...nodes[i], config: { where: 'seq > 100' } } as JobNode;
  const before = { types: cache.types.misses, columns: cache.columns.misses };
  const r = validateJob({ ...job, nodes }, { cache });
  assert.equal(r.ok, true);
  // The filter's own check; its output types are unchanged, so nothing downstream is recomputed.
  assert.equal(cache.columns.misses - before.columns, 1);
  assert.equal(cache.types.misses - before.types, 1);
});
