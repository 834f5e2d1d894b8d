/** `weir export --format flink-sql` end to end: the real CLI in its own process, writing a file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flinkSyntaxErrors } from './grammar.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

test('weir export --format flink-sql -o FILE writes a valid script and prints the warnings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-flink-cli-'));
  try {
    const out = join(dir, 'union-late.sql');
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin/weir.mjs'),
        'export',
        join(ROOT, 'examples/union-late/job.weir.json'),
        '--format',
        'flink-sql',
        '-o',
        out,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /nodes\[3\][^\n]*late port[^\n]*edges\[4\]/);
    assert.match(r.stderr, /nodes\[5\][^\n]*left out/);
    const text = readFileSync(out, 'utf8');
    assert.match(text, /EXECUTE STATEMENT SET/);
    assert.deepEqual(flinkSyntaxErrors(text), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
