/**
 * runtime/task/code-cache.ts in real processes: a CommonJS file runs with its require, module and
 * paths; the V8 code cache is written as the process exits (only when asked), taken by the next
 * process, and a cache V8 refuses (here: bytes that are no cache) is compiled around and rewritten.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../../support/run-helpers.ts';

const CODE_CACHE = fileURLToPath(new URL('../../../../engine/runtime/task/code-cache.ts', import.meta.url));

/** A bundle-like script: CommonJS globals, a builtin through require, a function that runs. */
const SCRIPT = `
const { basename } = require('node:path');
function greet(who) { return 'hello ' + who; }
module.exports = { greet };
console.log(JSON.stringify({ file: basename(__filename), dir: basename(__dirname), said: greet('task') }));
`;

interface Run {
  cache: string;
  printed: { file: string; dir: string; said: string };
}

/** One process that runs `file` with the code cache; `write` answers its shouldWrite(). */
function runOnce(file: string, write: boolean): Run {
  const driver = [
    `import { runWithCodeCache } from ${JSON.stringify(CODE_CACHE)};`,
    `const r = runWithCodeCache(${JSON.stringify(file)}, () => ${write});`,
    `console.log(JSON.stringify(r));`,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', driver], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
  });
  assert.equal(r.status, 0, r.stderr);
  const [printed, result] = r.stdout.trim().split('\n');
  return { cache: (JSON.parse(result) as { cache: string }).cache, printed: JSON.parse(printed) as Run['printed'] };
}

test('the script runs as CommonJS; the cache is written at exit and taken by the next process', (t) => {
  const { dir, cleanup } = tempDir('code-cache');
  t.after(cleanup);
  const file = join(dir, 'bundle.cjs');
  writeFileSync(file, SCRIPT);
  const first = runOnce(file, true);
  assert.deepEqual(first.printed, { file: 'bundle.cjs', dir: dir.split('/').pop(), said: 'hello task' });
  assert.equal(first.cache, 'none');
  assert.ok(existsSync(`${file}.v8cache`), 'written as the first process exited');
  const second = runOnce(file, true);
  assert.equal(second.cache, 'used');
  assert.deepEqual(second.printed, first.printed);
  assert.deepEqual(readdirSync(dir).sort(), ['bundle.cjs', 'bundle.cjs.v8cache'], 'no temporary file left');
});

test('no cache is written when shouldWrite() says no (an idle spare)', (t) => {
  const { dir, cleanup } = tempDir('code-cache');
  t.after(cleanup);
  const file = join(dir, 'bundle.cjs');
  writeFileSync(file, SCRIPT);
  assert.equal(runOnce(file, false).cache, 'none');
  assert.equal(existsSync(`${file}.v8cache`), false);
});

test('a cache V8 rejects changes nothing but the speed, and is replaced by a good one', (t) => {
  const { dir, cleanup } = tempDir('code-cache');
  t.after(cleanup);
  const file = join(dir, 'bundle.cjs');
  writeFileSync(file, SCRIPT);
  writeFileSync(`${file}.v8cache`, 'not a code cache');
  const rejected = runOnce(file, true);
  assert.equal(rejected.cache, 'rejected');
  assert.equal(rejected.printed.said, 'hello task');
  assert.notEqual(readFileSync(`${file}.v8cache`, 'utf8'), 'not a code cache');
  assert.equal(runOnce(file, true).cache, 'used');
});
