// Every bundled example is a valid job whose data files exist and match their generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateJob } from '../../../engine/graph/validate.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const examples = join(root, 'examples');
const index = JSON.parse(readFileSync(join(examples, 'index.json'), 'utf8')) as Array<{
  id: string;
  name: string;
  description: string;
  path: string;
}>;

// Nexmark queries share one folder (examples/nexmark/README.md): listed as nexmark-qN -> nexmark/qN.weir.json.
const NEXMARK = /^nexmark-(q\d+)$/;

test('examples/index.json lists every example folder and every Nexmark query, with a name and a description', () => {
  const folders = readdirSync(examples)
    .filter((f) => existsSync(join(examples, f, 'job.weir.json')))
    .sort();
  const nexmark = readdirSync(join(examples, 'nexmark'))
    .filter((f) => /^q\d+\.weir\.json$/.test(f))
    .map((f) => `nexmark-${f.replace('.weir.json', '')}`);
  assert.ok(folders.length >= 4);
  assert.deepEqual(index.map((e) => e.id).sort(), [...folders, ...nexmark].sort());
  for (const e of index) {
    const q = NEXMARK.exec(e.id);
    assert.equal(e.path, q ? `nexmark/${q[1]}.weir.json` : `${e.id}/job.weir.json`);
    assert.ok(e.name.length > 0 && e.description.length > 20, e.id);
  }
});

for (const entry of index) {
  test(`example ${entry.id} is valid, complete and points at the JSON Schema`, () => {
    const file = join(examples, entry.path);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const r = validateJob(doc, { baseDir: dirname(file) });
    assert.ok(r.ok, JSON.stringify(r.problems, null, 2));
    assert.deepEqual(r.problems, [], 'no warnings either');
    assert.equal(r.job.name, entry.id);
    assert.ok(existsSync(resolve(dirname(file), doc.$schema)), `$schema ${doc.$schema} resolves`);
    for (const n of r.job.nodes) {
      if (n.type === 'source.file')
        assert.ok(existsSync(resolve(r.job.baseDir!, n.config.path)), `${entry.id}: ${n.config.path}`);
    }
  });
}

test('the examples cover the node types and features they are meant to show', () => {
  const jobs = index.map((e) => JSON.parse(readFileSync(join(examples, e.path), 'utf8')));
  const types = new Set(jobs.flatMap((j) => j.nodes.map((n: { type: string }) => n.type)));
  for (const t of [
    'source.file',
    'source.generator',
    'filter',
    'map',
    'union',
    'window',
    'join.interval',
    'join.window',
    'join',
    'aggregate',
    'topn',
    'sink.file',
    'sink.preview',
  ]) {
    assert.ok(types.has(t), `some example uses ${t}`);
  }
  const kinds = new Set(
    jobs.flatMap((j) =>
      j.nodes
        .filter((n: { type: string }) => n.type === 'window')
        .map((n: { config: { window: { kind: string } } }) => n.config.window.kind),
    ),
  );
  assert.deepEqual([...kinds].sort(), ['session', 'sliding', 'tumbling']);
  assert.ok(jobs.some((j) => j.edges.some((e: { fromPort?: string }) => e.fromPort === 'late')));
  const backends = new Set(jobs.map((j) => j.settings?.stateBackend));
  assert.deepEqual([...backends].sort(), ['fs', 'memory', 'rocksdb']);
  const formats = new Set(
    jobs.flatMap((j) =>
      j.nodes
        .filter((n: { type: string }) => n.type === 'source.file')
        .map((n: { config: { format: string } }) => n.config.format),
    ),
  );
  assert.deepEqual([...formats].sort(), ['csv', 'jsonl']);
});

test('the committed data files are exactly what examples/generate-data.mjs writes', () => {
  const out = mkdtempSync(join(tmpdir(), 'weir-examples-'));
  try {
    execFileSync(process.execPath, [join(examples, 'generate-data.mjs'), '--out', out]);
    const generated = (dir: string, base = ''): string[] =>
      readdirSync(join(dir, base), { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? generated(dir, join(base, d.name)) : [join(base, d.name)],
      );
    const files = generated(out);
    assert.ok(files.length >= 4);
    for (const f of files) {
      assert.equal(
        readFileSync(join(examples, f), 'utf8'),
        readFileSync(join(out, f), 'utf8'),
        `${f} is stale: run node examples/generate-data.mjs`,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
