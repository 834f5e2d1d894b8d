/**
 * Issue 11, items 5, 1 and 6 over the WebSocket API of a real `weir serve` process: a run may read
 * and write only inside the workspace (after symlinks), whatever the job says; a run of a job the
 * CLI is running is refused naming the holder; a re-run into committed output is refused with the
 * typed `output_exists` error, and `clearOutput` then gives exactly one copy.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { connectHost, type HostConnection, type WebSocketConstructor } from '../../engine/host/browser/ws-client.ts';
import type { HostEvent } from '../../engine/host/common/api.ts';
import { startServe, type ServeProcess } from '../e2e/support/serve.ts';
import { startWeir, sleep } from '../support/run-helpers.ts';
import { assertExact, faultJob, faultReference, waitForCheckpoint } from './fault-job.ts';

const passthrough = (
  source: Record<string, unknown>,
  sink: Record<string, unknown>,
  settings: Record<string, unknown> = {},
) => ({
  format: 'weir.job/v1',
  name: 'confined',
  settings: { stateBackend: 'fs', ...settings },
  nodes: [
    { id: 'src', type: 'source.file', config: { format: 'jsonl', ...source } },
    { id: 'out', type: 'sink.file', config: { format: 'jsonl', ...sink } },
  ],
  edges: [{ from: 'src', to: 'out' }],
});

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  assert.fail('expected the host to refuse');
}

describe(
  'faults: weir serve confines runs and refuses duplicates',
  { skip: process.platform !== 'linux' ? 'POSIX paths' : undefined },
  () => {
    let serve: ServeProcess;
    let host: HostConnection;
    let outside: string;
    const events: HostEvent[] = [];

    before(async () => {
      serve = await startServe();
      host = await connectHost(`ws://127.0.0.1:${serve.port}/ws`, serve.token, {
        WebSocket: WebSocket as unknown as WebSocketConstructor,
      });
      host.onEvent((e) => events.push(e));
      outside = mkdtempSync(join(tmpdir(), 'weir-outside-'));
      writeFileSync(join(outside, 'in.jsonl'), '{"a":1}\n');
      mkdirSync(join(serve.workspace, 'job'));
      writeFileSync(join(serve.workspace, 'job', 'in.jsonl'), '{"a":1}\n{"a":2}\n');
      symlinkSync(outside, join(serve.workspace, 'job', 'escape'));
    });
    after(async () => {
      host?.close();
      await serve?.close();
      rmSync(outside, { recursive: true, force: true });
    });

    const cases: Array<[string, ReturnType<typeof passthrough>, RegExp]> = [];
    before(() => {
      cases.push(
        [
          'a source of /etc/passwd',
          passthrough({ path: '/etc/passwd' }, { path: 'out' }),
          /^nodes\[0\]\.config\.path: \/etc\/passwd is outside the workspace/,
        ],
        [
          'a source outside through ..',
          passthrough({ path: `../../${outside.split('/').pop()}/in.jsonl` }, { path: 'out' }),
          /^nodes\[0\]\.config\.path: .* is outside the workspace/,
        ],
        [
          'a sink folder outside',
          passthrough({ path: 'in.jsonl' }, { path: join(outside, 'sink') }),
          /^nodes\[1\]\.config\.path: .* is outside the workspace/,
        ],
        [
          'a sink through a symlink',
          passthrough({ path: 'in.jsonl' }, { path: 'escape/sink' }),
          /^nodes\[1\]\.config\.path: escape\/sink is outside the workspace/,
        ],
        [
          'a checkpoint folder outside',
          passthrough(
            { path: 'in.jsonl' },
            { path: 'out' },
            { checkpointing: { interval: '1s', dir: join(outside, 'cp') } },
          ),
          /^settings\.checkpointing\.dir: .* is outside the workspace/,
        ],
      );
    });

    it('refuses every path outside the workspace with forbidden_path naming the field, creating nothing', async () => {
      assert.ok(cases.length === 5);
      for (const [what, job, message] of cases) {
        writeFileSync(join(serve.workspace, 'job', 'job.weir.json'), JSON.stringify(job));
        const err = await refusal(host.run({ job: job as never, path: join(serve.workspace, 'job', 'job.weir.json') }));
        assert.equal(err.code, 'forbidden_path', `${what}: ${err.message}`);
        assert.match(err.message, message, what);
      }
      assert.ok(!existsSync(join(outside, 'sink')) && !existsSync(join(outside, 'cp')), 'nothing was created outside');
      assert.ok(!events.some((e) => e.type === 'preview'), 'nothing was read and streamed back');
    });

    it('refuses a run while the CLI runs the same job (already_running, naming the pid), then output_exists, then clearOutput is exact', async () => {
      const dir = join(serve.workspace, 'faults');
      mkdirSync(dir);
      const doc = faultJob('fs', { rate: 500 });
      writeFileSync(join(dir, 'job.weir.json'), JSON.stringify(doc));
      const cli = startWeir(['run', 'job.weir.json', '--quiet'], dir);
      await waitForCheckpoint(join(dir, 'checkpoints', 'faults-fs'), 1);
      const path = join(dir, 'job.weir.json');
      const locked = await refusal(host.run({ job: doc as never, path }));
      assert.equal(cli.child.exitCode, null, 'the CLI run was still going');
      assert.equal(locked.code, 'already_running', locked.message);
      assert.match(locked.message, new RegExp(`pid ${cli.child.pid}`));
      assert.equal((await cli.result).code, 0);
      const reference = faultReference();
      assertExact(join(dir, 'out'), reference, 'CLI run');

      const again = await refusal(host.run({ job: doc as never, path }));
      assert.equal(again.code, 'output_exists', again.message);
      assert.match(again.message, /--resume .*--clear-output .*another sink path/);
      assertExact(join(dir, 'out'), reference, 'after the refused re-run');

      const info = await host.run({ job: doc as never, path, clearOutput: true });
      const start = Date.now();
      while (!events.some((e) => e.type === 'job.status' && e.runId === info.runId && e.status === 'finished')) {
        assert.ok(Date.now() - start < 60_000, 'the cleared run finishes');
        await sleep(20);
      }
      assertExact(join(dir, 'out'), reference, 'after clearOutput');
    });
  },
);
