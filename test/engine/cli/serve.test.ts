/** `weir serve`'s argument checks: every mistake is one clear line and exit 2, nothing listens. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveCommand, SERVE_USAGE } from '../../../engine/cli/serve.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe('weir serve arguments', () => {
  it('prints its usage', async () => {
    const c = capture();
    assert.equal(await serveCommand(['--help'], c.io), 0);
    assert.deepEqual(c.out, [SERVE_USAGE]);
  });

  it('refuses a bad port, a file as workspace and an unknown example', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'weir-serve-args-'));
    // A missing workspace folder is created (test/e2e/daily-problems.test.ts); a file is refused.
    writeFileSync(join(ws, 'a-file'), 'x');
    try {
      const cases: Array<[string[], RegExp]> = [
        [['--port', 'eighty'], /--port: expected a port number/],
        [['--port', '70000'], /--port/],
        [['--workspace', join(ws, 'a-file')], /--workspace: .* is not a folder/],
        [['--workspace', ws, '--example', 'no-such-example'], /--example: no example named 'no-such-example'/],
      ];
      for (const [args, message] of cases) {
        const c = capture();
        assert.equal(await serveCommand(args, c.io), 2, args.join(' '));
        assert.deepEqual(c.out, [], 'nothing on stdout: the address line never appears');
        assert.match(c.err.join('\n'), message);
      }
      assert.equal(existsSync(join(ws, 'no-such-example')), false);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
