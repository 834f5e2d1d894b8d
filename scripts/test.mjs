#!/usr/bin/env node
// `npm test`: every test file under test/ (unit, integration, chaos) and then the browser e2e tests
// under test/e2e/, through node's own test runner so the closing lines carry the counts.
// Flags: --e2e-only, --no-e2e, and any path filters (substring match on the file path).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const e2eOnly = args.includes('--e2e-only');
const noE2e = args.includes('--no-e2e') || process.env.WEIR_NO_E2E === '1';
const filters = args.filter((a) => !a.startsWith('--'));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'artifacts' || name === 'fixtures') return [];
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const all = walk('test')
  .filter((p) => p.endsWith('.test.ts'))
  .map((p) => relative('.', p))
  .sort();
const isE2e = (p) => p.startsWith(join('test', 'e2e'));
let files = all.filter((p) => (e2eOnly ? isE2e(p) : noE2e ? !isE2e(p) : true));
if (filters.length) files = files.filter((p) => filters.some((f) => p.includes(f)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Tests spawn bin/weir.mjs, which runs the compiled CLI as users do: build it once up front rather
// than in the first test that spawns it (bin/weir.mjs would rebuild a stale one anyway).
spawnSync(process.execPath, ['scripts/build.mjs', '--cli'], { stdio: 'inherit' });
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
