/**
 * Golden files pin the exported SQL of representative jobs and of every example under examples/
 * (new examples are picked up automatically). Regenerate with UPDATE_GOLDEN=1 after a deliberate
 * change and review the diff. Every script is also checked by the Flink SQL grammar.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validateJob } from '../../../../engine/graph/validate.ts';
import type { NormalizedJob } from '../../../../engine/graph/types.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { describeSyntaxErrors, flinkSyntaxErrors } from './grammar.ts';
import { DATA_DIR, everything, job, ordersPerUser, plainJobs } from './jobs.ts';

const GOLDEN = fileURLToPath(new URL('./golden/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../../../examples/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** The job folder differs per checkout; golden files name it JOB_DIR. */
function portable(text: string, baseDir: string): string {
  return text.split(pathToFileURL(baseDir).href).join('file:///JOB_DIR');
}

function checkGolden(name: string, normalized: NormalizedJob): void {
  const { text } = exportFlinkSql(normalized);
  const errors = flinkSyntaxErrors(text);
  assert.deepEqual(errors, [], `${name}: Flink SQL syntax errors:\n${describeSyntaxErrors(text, errors)}`);
  const actual = portable(text, normalized.baseDir ?? '');
  const file = join(GOLDEN, `${name}.sql`);
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(
    existsSync(file),
    `missing golden file ${file}: run UPDATE_GOLDEN=1 node --import tsx --test ${fileURLToPath(import.meta.url)}`,
  );
  assert.equal(
    actual,
    readFileSync(file, 'utf8'),
    `${name}: exported SQL differs from ${file} (UPDATE_GOLDEN=1 regenerates it)`,
  );
}

test('golden: the job-format example (file source, filter, tumbling window, file sink)', () => {
  checkGolden('orders-per-user', job(ordersPerUser));
});

test('golden: every node type, every window kind, union, late port and preview', () => {
  checkGolden('every-node', job(everything));
});

for (const [name, doc] of Object.entries(plainJobs)) {
  test(`golden: ${name}`, () => checkGolden(name, job(doc)));
}

const examples = existsSync(EXAMPLES)
  ? readdirSync(EXAMPLES)
      .filter((d) => existsSync(join(EXAMPLES, d, 'job.weir.json')))
      .sort()
  : [];

test('there are examples to export', () => {
  assert.ok(examples.length >= 3, `expected examples/*/job.weir.json, found ${examples.length}`);
});

for (const name of examples) {
  test(`golden: example ${name}`, () => {
    const dir = join(EXAMPLES, name);
    const r = validateJob(JSON.parse(readFileSync(join(dir, 'job.weir.json'), 'utf8')), { baseDir: dir });
    assert.ok(r.ok, `examples/${name} does not validate: ${JSON.stringify(r.problems)}`);
    if (r.ok) checkGolden(`example-${name}`, r.job);
  });
}

// The Nexmark queries share examples/nexmark/ (qN.weir.json beside the suite's qN.sql).
const NEXMARK = join(EXAMPLES, 'nexmark');
const nexmark = existsSync(NEXMARK) ? readdirSync(NEXMARK).filter((f) => /^q\d+\.weir\.json$/.test(f)) : [];

for (const file of nexmark) {
  const q = file.replace('.weir.json', '');
  test(`golden: example nexmark ${q}`, () => {
    const r = validateJob(JSON.parse(readFileSync(join(NEXMARK, file), 'utf8')), { baseDir: NEXMARK });
    assert.ok(r.ok, `examples/nexmark/${file} does not validate: ${JSON.stringify(r.problems)}`);
    if (r.ok) checkGolden(`example-nexmark-${q}`, r.job);
  });
}

void DATA_DIR;
