import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { jobDocumentSchema } from '../../../engine/graph/schema.ts';
import { validateJob } from '../../../engine/graph/validate.ts';
import { NODE_TYPES } from '../../../engine/graph/types.ts';
import { renderJobJsonSchema, SCHEMA_FILE } from '../../../schemas/generate.ts';
import { baseJob, lines } from './job-builders.ts';

function problemsFor(doc: unknown): string[] {
  const r = validateJob(doc);
  assert.equal(r.ok, false, 'expected the job to be rejected');
  return lines(r.problems);
}

test('the committed JSON Schema is generated from the zod schema', () => {
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  assert.equal(
    committed,
    renderJobJsonSchema(),
    'schemas/weir.job.v1.schema.json is stale: run `node --import tsx schemas/generate.ts`',
  );
  const schema = JSON.parse(committed);
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(schema.additionalProperties, false);
  assert.ok(schema.$defs.Duration, 'durations are shared through $defs');
});

test('the schema discriminates exactly the node types of types.ts', () => {
  const opts = (
    jobDocumentSchema.shape.nodes.element as unknown as { options: Array<{ shape: { type: { value: string } } }> }
  ).options;
  assert.deepEqual(opts.map((o) => o.shape.type.value).sort(), [...NODE_TYPES].sort());
});

test('unknown node type lists the known ones', () => {
  const doc = baseJob() as any;
  doc.nodes[1].type = 'filtre';
  assert.deepEqual(problemsFor(doc), [
    "nodes[1].type: unknown node type 'filtre' (known: source.file, source.generator, source.nexmark, source.postgres, source.kafka, filter, map, union, window, join.interval, join.window, join, aggregate, topn, sink.file, sink.postgres, sink.kafka, sink.preview, sink.blackhole)",
  ]);
  const r = validateJob(doc);
  assert.equal(r.ok ? undefined : r.problems[0].nodeId, 'big');
});

test('unknown enum values say which values are allowed', () => {
  const doc = baseJob() as any;
  doc.settings.stateBackend = 'rocks';
  doc.nodes[0].config.format = 'parquet';
  doc.edges[0].fromPort = 'early';
  assert.deepEqual(problemsFor(doc), [
    "settings.stateBackend: unknown value 'rocks' (allowed: memory, fs, rocksdb)",
    "nodes[0].config.format: unknown value 'parquet' (allowed: jsonl, csv)",
    "edges[0].fromPort: unknown value 'early' (allowed: out, late, bad, person, auction, bid)",
  ]);
});

test('unknown fields are errors at their own path, with the allowed fields', () => {
  const doc = baseJob() as any;
  doc.nodes[1].config.wher = 'x';
  doc.settings.checkpointing.intervall = '1s';
  doc.description = 'not part of the format';
  const p = problemsFor(doc);
  assert.ok(p.includes("nodes[1].config.wher: unknown field 'wher' (allowed here: where)"), p.join('\n'));
  assert.ok(
    p.some((l) =>
      l.startsWith("settings.checkpointing.intervall: unknown field 'intervall' (allowed here: interval, mode,"),
    ),
    p.join('\n'),
  );
  assert.ok(
    p.some((l) =>
      l.startsWith(
        "description: unknown field 'description' (allowed here: $schema, format, name, settings, nodes, edges, groups, notes)",
      ),
    ),
    p.join('\n'),
  );
});

test('missing and mistyped fields, bad durations and sizes, out-of-range numbers', () => {
  const doc = baseJob() as any;
  delete doc.nodes[1].config.where;
  doc.nodes[2].config.window = { kind: 'tumbling', size: '10 secs' };
  doc.settings.memoryStateLimit = '5tb';
  doc.settings.parallelism = 0;
  doc.settings.maxParallelism = 1e6;
  doc.nodes[3].parallelism = 1.5;
  doc.name = 7;
  assert.deepEqual(problemsFor(doc), [
    'name: expected a string, got number 7',
    "settings.memoryStateLimit: invalid size '5tb': unknown unit 'tb' (allowed: b, kb, mb, gb)",
    'settings.parallelism: must be >= 1, got number 0',
    'settings.maxParallelism: must be <= 32768, got number 1000000',
    'nodes[1].config.where: missing required field (expected a string)',
    "nodes[2].config.window.size: invalid duration '10 secs': unknown unit 'secs' (allowed: ms, s, m, h, d)",
    'nodes[3].parallelism: expected an integer, got number 1.5',
  ]);
});

test('window kinds are discriminated too; the wrong format and non-objects are explained', () => {
  const doc = baseJob() as any;
  doc.nodes[2].config.window = { kind: 'hopping', size: '1s' };
  assert.deepEqual(problemsFor(doc), [
    "nodes[2].config.window.kind: unknown window kind 'hopping' (known: tumbling, sliding, session)",
  ]);
  const sliding = baseJob() as any;
  sliding.nodes[2].config.window = { kind: 'sliding', size: '10s' };
  sliding.settings.restart = { delay: true };
  assert.deepEqual(problemsFor(sliding), [
    "settings.restart.delay: duration must be a number or a string such as '5s'",
    "nodes[2].config.window.slide: missing required field (expected a duration such as '5s')",
  ]);
  assert.deepEqual(problemsFor([]), ['(document): expected an object, got an array']);
  const noFormat = baseJob() as any;
  delete noFormat.nodes[0].config.format;
  delete noFormat.format;
  assert.deepEqual(problemsFor(noFormat), [
    'format: missing required field (expected "weir.job/v1")',
    'nodes[0].config.format: missing required field (allowed: jsonl, csv)',
  ]);
  assert.deepEqual(problemsFor({ ...baseJob(), format: 'weir.job/v2' }), [
    'format: expected "weir.job/v1", got \'weir.job/v2\'',
  ]);
  assert.deepEqual(problemsFor({ ...baseJob(), nodes: [{ id: 'a', config: {} }] }).slice(0, 1), [
    'nodes[0].type: missing node type (known: source.file, source.generator, source.nexmark, source.postgres, source.kafka, filter, map, union, window, join.interval, join.window, join, aggregate, topn, sink.file, sink.postgres, sink.kafka, sink.preview, sink.blackhole)',
  ]);
});

test('a valid document parses and $schema is allowed', () => {
  const r = jobDocumentSchema.safeParse({ ...baseJob(), $schema: '../../schemas/weir.job.v1.schema.json' });
  assert.equal(r.success, true);
});

test('the JSON Schema works in a standard validator: examples pass, mistakes fail', async () => {
  // ajv comes with electron-store; it is what editors' JSON Schema support behaves like.
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')),
  );
  const root = new URL('../../../examples/', import.meta.url);
  for (const name of ['orders-per-user', 'clicks-sessions', 'sensor-sliding', 'union-late']) {
    const doc = JSON.parse(readFileSync(new URL(`${name}/job.weir.json`, root), 'utf8'));
    assert.equal(validate(doc), true, `${name}: ${JSON.stringify(validate.errors)}`);
  }
  const mistakes: Array<(d: any) => void> = [
    (d) => {
      d.settings.stateBackend = 'redis';
    },
    (d) => {
      d.nodes[1].config.wher = 'x';
    },
    (d) => {
      d.nodes[2].config.window.size = '5q';
    },
    (d) => {
      d.nodes[0].type = 'source.kafka';
    },
    (d) => {
      d.settings.memoryStateLimit = '5tb';
    },
    (d) => {
      d.edges[0].fromPort = 'early';
    },
  ];
  for (const [i, mistake] of mistakes.entries()) {
    const doc = baseJob() as any;
    assert.equal(validate(doc), true, JSON.stringify(validate.errors));
    mistake(doc);
    assert.equal(validate(doc), false, `mistake ${i} is caught by the JSON Schema`);
  }
});
