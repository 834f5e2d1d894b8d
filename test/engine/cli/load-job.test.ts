import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeJsonError, loadJob, readJobFile } from '../../../engine/cli/load-job.ts';
import { main } from '../../../engine/cli/main.ts';
import type { CliIO } from '../../../engine/cli/output.ts';
import { ROOT, tempDir, writeJob } from './cli-helpers.ts';

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return describeJsonError(text, e);
  }
  throw new Error('expected invalid JSON');
}

test('JSON errors give line and column instead of a character offset', () => {
  assert.equal(jsonError('{"a":1,}'), 'expected double-quoted property name (line 1, column 8)');
  assert.equal(jsonError('{\n  "a": 1\n  "b": 2}'), "expected ',' or '}' after property value (line 3, column 3)");
  assert.equal(jsonError('{"a":'), 'unexpected end of the file (line 1, column 6)');
  assert.equal(jsonError(''), 'the file is empty');
  assert.match(jsonError('nope'), /^unexpected token/);
});

test('loadJob: valid file gets baseDir = its folder; BOM is tolerated', async (t) => {
  const dir = tempDir(t);
  const job = JSON.parse(readFileSync(join(ROOT, 'examples/orders-per-user/job.weir.json'), 'utf8'));
  const file = writeJob(dir, 'job.json', `\ufeff${JSON.stringify(job)}`);
  const r = await loadJob(file);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.problems));
  assert.equal(r.baseDir, dir);
  assert.equal(r.job.baseDir, dir);
  assert.equal(r.job.settings.checkpointing.interval, 1000);
});

test('loadJob: read, parse and validate failures are problems, never exceptions', async (t) => {
  const dir = tempDir(t);
  const missing = await loadJob(join(dir, 'none.json'));
  assert.deepEqual(missing, {
    ok: false,
    file: join(dir, 'none.json'),
    stage: 'read',
    problems: [{ path: join(dir, 'none.json'), message: 'cannot read job file: no such file', severity: 'error' }],
  });
  mkdirSync(join(dir, 'folder.json'));
  const folder = await readJobFile(join(dir, 'folder.json'));
  assert.equal(folder.ok ? '' : folder.problem.message, 'cannot read job file: is a folder, not a job file');
  const broken = await loadJob(writeJob(dir, 'b.json', '{ "format": '));
  assert.equal(broken.ok ? '' : broken.stage, 'parse');
  const invalid = await loadJob(writeJob(dir, 'c.json', { format: 'weir.job/v1' }));
  assert.equal(invalid.ok ? '' : invalid.stage, 'validate');
  assert.ok(!invalid.ok && invalid.problems.some((p) => p.path === 'name'));
});

test('main() in process: output goes through the given io, diagnostics to err', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (s) => out.push(s), err: (s) => err.push(s) };
  assert.equal(await main(['validate', join(ROOT, 'examples/union-late/job.weir.json')], io), 0);
  assert.deepEqual(out, ['union-late: valid (6 nodes, 5 edges, backend fs, checkpoints every 1s)']);
  assert.deepEqual(err, []);
  assert.equal(await main([], io), 2);
  assert.match(err.join('\n'), /Usage: weir <command>/);
});
