/**
 * Issue 23, items 7 and 8, over the WebSocket API of a real `weir serve` process:
 * - a page may make the host read only the environment variables the user allowed (`WEIR_*` and
 *   `--allow-env` names) as a PostgreSQL password: "Test connection" and a run naming any other
 *   (`HOME`) are refused naming the variable and how to allow it, and nothing connects to the host
 *   the page named (a listening socket on 127.0.0.1 counts the connections);
 * - `listCheckpoints` reads only checkpoint folders inside the workspace (after symlinks): another
 *   job's real checkpoints outside are refused with `forbidden_path`, the same folder copied inside
 *   is listed.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { connectHost, type HostConnection, type WebSocketConstructor } from '../../engine/host/browser/ws-client.ts';
import { startServe, ROOT, type ServeProcess } from '../e2e/support/serve.ts';
import { completedCheckpoints, faultJob } from './fault-job.ts';

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; problems?: unknown[] }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  assert.fail('expected the host to refuse');
}

describe('faults: weir serve reads only allowed variables and confined checkpoint folders', () => {
  let serve: ServeProcess;
  let host: HostConnection;
  let outside: string;
  let trap: Server;
  let trapPort = 0;
  let trapConnections = 0;

  before(async () => {
    serve = await startServe(['--allow-env', 'WEIR_FAULTS_ALLOWED,FAULTS_ALLOWED_PW']);
    host = await connectHost(`ws://127.0.0.1:${serve.port}/ws`, serve.token, {
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'weir-outside-')));
    // The "database" a hostile page names: it only counts who connects.
    trap = createServer((s) => {
      trapConnections++;
      s.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
    trapPort = (trap.address() as { port: number }).port;
  });
  after(async () => {
    host?.close();
    await serve?.close();
    rmSync(outside, { recursive: true, force: true });
    await new Promise<void>((r) => (trap ? trap.close(() => r()) : r()));
  });

  it('refuses "Test connection" naming a variable the user did not allow, connecting nowhere', async () => {
    const url = `postgresql://postgres@127.0.0.1:${trapPort}/postgres`;
    for (const name of ['HOME', 'PATH', 'WEIR_', 'weir_lower']) {
      const r = await host.testPostgres({ url, table: 't', passwordEnv: name });
      assert.equal(r.ok, false, name);
      assert.match(r.message ?? '', new RegExp(`^passwordEnv: the environment variable ${name} may not be read here`));
      assert.match(r.message ?? '', new RegExp(`--allow-env ${name}`), 'the refusal says how to allow it');
    }
    // Allowed names pass the check and reach the connection (which then finds them unset).
    for (const name of ['WEIR_FAULTS_UNSET_PW', 'FAULTS_ALLOWED_PW']) {
      const r = await host.testPostgres({ url, table: 't', passwordEnv: name });
      assert.match(r.message ?? '', new RegExp(`^passwordEnv: the environment variable ${name} is not set`), name);
    }
    assert.equal(trapConnections, 0, 'nothing connected to the host the page named');
  });

  it('refuses a run whose PostgreSQL sink names such a variable, before anything starts', async () => {
    const dir = join(serve.workspace, 'pg');
    mkdirSync(dir);
    const job = {
      format: 'weir.job/v1',
      name: 'leak',
      settings: { stateBackend: 'fs' },
      nodes: [
        { id: 'gen', type: 'source.generator', config: { seed: 1, count: 10, keys: 2, step: 1 } },
        {
          id: 'pg',
          type: 'sink.postgres',
          config: {
            url: `postgresql://postgres@127.0.0.1:${trapPort}/postgres`,
            table: 't',
            mode: 'append',
            passwordEnv: 'HOME',
          },
        },
      ],
      edges: [{ from: 'gen', to: 'pg' }],
    };
    const path = join(dir, 'leak.weir.json');
    writeFileSync(path, JSON.stringify(job));
    const err = await refusal(host.run({ job: job as never, path }));
    assert.equal(err.code, 'invalid_job', err.message);
    assert.match(err.message, /^nodes\[1\]\.config\.passwordEnv: the environment variable HOME may not be read here/);
    assert.deepEqual(
      (err.problems as Array<{ path: string; nodeId: string }>).map((p) => [p.path, p.nodeId]),
      [['nodes[1].config.passwordEnv', 'pg']],
    );
    assert.deepEqual(await host.listRuns({}), [], 'no run started');
    assert.equal(trapConnections, 0, 'nothing connected to the host the page named');
  });

  it('refuses --allow-env with a name that is no variable name', () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'weir.mjs'), 'serve', '--port', '0', '--allow-env', 'A,B-C'],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--allow-env: 'B-C' is not an environment variable name/);
  });

  it("refuses to list another job's checkpoints outside the workspace, lists the same folder inside", async () => {
    // A real run by the CLI outside the workspace leaves real retained checkpoints there.
    const doc = faultJob('fs', { name: 'secret-job' });
    writeFileSync(join(outside, 'job.weir.json'), JSON.stringify(doc));
    const cli = spawnSync(process.execPath, [join(ROOT, 'bin', 'weir.mjs'), 'run', 'job.weir.json', '--quiet'], {
      cwd: outside,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(cli.status, 0, cli.stderr);
    const retained = completedCheckpoints(join(outside, 'checkpoints', 'secret-job'));
    assert.ok(retained.length > 0, 'the outside job retained checkpoints');

    const dir = join(serve.workspace, 'probe');
    mkdirSync(dir);
    const path = join(dir, 'probe.weir.json');
    symlinkSync(join(outside, 'checkpoints'), join(dir, 'linked'));
    const spellings: Array<[string, string]> = [
      ['absolute', join(outside, 'checkpoints')],
      ['relative with ..', `../../${outside.split('/').pop()}/checkpoints`],
      ['through a symlink inside', 'linked'],
    ];
    for (const [what, cpDir] of spellings) {
      const job = {
        ...doc,
        settings: { ...doc.settings, checkpointing: { ...doc.settings.checkpointing, dir: cpDir } },
      };
      const err = await refusal(host.listCheckpoints({ job: job as never, path }));
      assert.equal(err.code, 'forbidden_path', `${what}: ${err.message}`);
      assert.match(err.message, /^settings\.checkpointing\.dir: .* is outside the workspace/, what);
    }

    cpSync(join(outside, 'checkpoints'), join(dir, 'checkpoints'), { recursive: true });
    const listed = await host.listCheckpoints({ job: doc as never, path });
    assert.deepEqual(
      listed
        .filter((c) => c.kind === 'checkpoint')
        .map((c) => c.id)
        .sort((a, b) => a - b),
      [...retained].sort((a, b) => a - b),
      'the same folder inside the workspace is listed',
    );
  });
});
