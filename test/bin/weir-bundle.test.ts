// bin/weir.mjs runs the compiled CLI (scripts/build-cli.mjs), rebuilds it when a source is newer,
// and runs the TypeScript sources through tsx with WEIR_DEV=1 or --dev: the same answers either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'weir.mjs');
const POINTER = join(ROOT, 'dist', 'cli.json');

interface Manifest {
  dir: string;
  builtAt: number;
  inputs: string[];
}

function weir(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const manifest = (): Manifest => JSON.parse(readFileSync(POINTER, 'utf8')) as Manifest;
const VERSION = /^weir \d+\.\d+\.\d+\n$/;

test('weir --version from the bundle, and from the sources with WEIR_DEV=1 or --dev, prints one line', () => {
  const bundled = weir(['--version']);
  assert.equal(bundled.code, 0, bundled.stderr);
  assert.match(bundled.stdout, VERSION);
  assert.equal(bundled.stderr, '');
  assert.equal(weir(['--version'], { WEIR_DEV: '1' }).stdout, bundled.stdout);
  assert.equal(weir(['--dev', '--version']).stdout, bundled.stdout);
});

test('the bundle lists the sources it was built from and holds the CLI and the task process entries', () => {
  assert.equal(weir(['--version']).code, 0);
  const m = manifest();
  for (const src of ['engine/cli/main.ts', 'engine/runtime/task/task-main.ts', 'scripts/build-cli.mjs'])
    assert.ok(m.inputs.includes(src), `${src} is an input`);
  for (const entry of ['weir.mjs', 'task-main.cjs', 'task-process.cjs'])
    assert.ok(existsSync(join(ROOT, 'dist', m.dir, entry)), entry);
});

test('a source newer than the bundle makes the next weir rebuild it before running', () => {
  assert.equal(weir(['--version']).code, 0);
  const before = manifest();
  const source = join(ROOT, 'engine', 'cli', 'version.ts');
  const { atime } = statSync(source);
  // Only the modification time moves (the content stays): now, which is after the build.
  utimesSync(source, atime, new Date(Math.max(Date.now(), before.builtAt + 1)));
  const r = weir(['--version']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, VERSION);
  assert.equal(r.stderr, '', 'a rebuild is silent when it works');
  const after = manifest();
  assert.notEqual(after.dir, before.dir, 'a new bundle folder');
  assert.ok(after.builtAt > before.builtAt);
  assert.ok(existsSync(join(ROOT, 'dist', after.dir, 'weir.mjs')));
});
