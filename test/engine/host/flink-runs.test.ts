/**
 * The host API's Run on Flink (engine/host/node/flink-runs.ts) and settings, over the in-memory
 * transport (events validated on the page side): settings kept and checked (memory and the file
 * `weir serve` uses), a refusal in one line, and on a real Flink SQL Gateway from Maven artifacts
 * (the runner's GatewayServer, Flink 1.20) a bounded job followed to FINISHED with its vertices,
 * records and web UI, and an unbounded one stopped with a savepoint.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlinkRunEvent, HostEvent } from '../../../engine/host/common/api.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { DEFAULT_SETTINGS, fileSettingsStore } from '../../../engine/host/node/settings-store.ts';
import { buildRunner, flinkSkipReason, freePort, startGateway } from '../../flink-runner/runner-support.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';
import { checkGatewayAllowed } from '../../../engine/host/node/flink-gateway-allow.ts';

async function rejection(p: Promise<unknown>): Promise<HostError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HostError, String(e));
    return e;
  }
  assert.fail('expected a rejection');
}

function connect(opts: Partial<Parameters<typeof createLocalHost>[0]> = {}) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-flink-host-')));
  const host: LocalHost = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR, eventInterval: 100, ...opts });
  const t = createMemoryTransport(host);
  const events: HostEvent[] = [];
  t.client.onEvent((e) => events.push(e));
  return {
    workspace,
    api: t.client,
    events,
    async close() {
      t.close();
      await host.dispose();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

describe('host settings', () => {
  it('keeps Run on Flink choices and refuses a bad gateway URL naming the field', async () => {
    const c = connect();
    try {
      assert.deepEqual(await c.api.getSettings({}), DEFAULT_SETTINGS);
      const flink = {
        target: 'gateway',
        gatewayUrl: 'http://localhost:8083',
        flinkVersion: '2.x',
        parallelism: 3,
      } as const;
      assert.deepEqual(await c.api.setSettings({ flink }), { flink });
      assert.deepEqual(await c.api.getSettings({}), { flink });
      const bad = await rejection(c.api.setSettings({ flink: { ...flink, gatewayUrl: 'localhost:8083' } }));
      assert.equal(bad.code, 'invalid_request');
      assert.match(bad.message, /params\.flink\.gatewayUrl: an http\(s\) URL/);
      assert.deepEqual(await c.api.getSettings({}), { flink }, 'a refused write changed nothing');
    } finally {
      await c.close();
    }
  });

  it("`weir serve`'s file keeps them across hosts; a corrupt file gives the defaults", () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-settings-'));
    try {
      const file = join(dir, '.weir-settings.json');
      const flink = { target: 'local', gatewayUrl: '', flinkVersion: '2.x', parallelism: 2 } as const;
      fileSettingsStore(file).save({ flink });
      assert.deepEqual(fileSettingsStore(file).load(), { flink });
      writeFileSync(file, '{"flink":{"target":"moon"}}');
      assert.deepEqual(fileSettingsStore(file).load(), DEFAULT_SETTINGS);
      writeFileSync(file, '{ not json');
      assert.deepEqual(fileSettingsStore(file).load(), DEFAULT_SETTINGS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('flinkRun refusals', () => {
  it('no Java on this machine: refused in one line, as weir flink run says it', async () => {
    const c = connect();
    const path = process.env.PATH;
    // The runner's availability looks `java` up on PATH: an empty folder has none.
    process.env.PATH = c.workspace;
    try {
      const job = JSON.parse(readFileSync(join(EXAMPLES_DIR, 'orders-per-user', 'job.weir.json'), 'utf8'));
      const e = await rejection(c.api.flinkRun({ job, target: { kind: 'local' }, flinkVersion: '1.20' }));
      assert.equal(e.code, 'unsupported');
      assert.match(e.message, /^Java is not installed: running on Flink needs Java 17 or newer/);
      assert.ok(!e.message.includes('\n'));
    } finally {
      process.env.PATH = path;
      await c.close();
    }
  });

  it('a gateway the page names that is neither loopback nor configured is refused before any request (no SSRF)', async () => {
    // A server standing in for a remote host: any request reaching it would be the proxying refused here.
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(404, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"errors":["not a gateway"]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const c = connect({ flinkGateways: ['http://flink-gw.example:8083'] });
    try {
      cpSync(join(EXAMPLES_DIR, 'orders-per-user'), join(c.workspace, 'orders'), { recursive: true });
      const path = join(c.workspace, 'orders', 'job.weir.json');
      const job = JSON.parse(readFileSync(path, 'utf8'));
      const run = (url: string) =>
        c.api.flinkRun({ job, path, target: { kind: 'gateway', url }, flinkVersion: '1.20' });
      for (const url of [
        'http://169.254.169.254/latest/meta-data',
        'http://10.0.0.7:8083',
        'https://flink-gw.example:9999',
      ]) {
        const e = await rejection(run(url));
        assert.equal(e.code, 'invalid_request', url);
        assert.equal(
          e.message,
          `the SQL Gateway ${url} is not on this machine and not one the user configured: ` +
            'save it as the gateway in the Run on Flink settings, or start weir serve with --flink-gateway URL',
        );
      }
      // The allow-list itself: loopback names, the command line's origin, the saved settings' origin.
      assert.doesNotThrow(() => checkGatewayAllowed('http://localhost:8083', []));
      assert.doesNotThrow(() => checkGatewayAllowed('http://[::1]:8083/', []));
      assert.doesNotThrow(() => checkGatewayAllowed('http://127.0.0.2:8083', []));
      assert.doesNotThrow(() =>
        checkGatewayAllowed('http://flink-gw.example:8083/v1', ['http://flink-gw.example:8083']),
      );
      assert.throws(() => checkGatewayAllowed('http://localhost.evil.example:8083', []), /not on this machine/);
      assert.throws(() => checkGatewayAllowed('http://flink-gw.example:8084', ['http://flink-gw.example:8083']));
      // A gateway saved in the settings is the user's choice: allowed (`.invalid` never resolves, so it fails fast).
      const saved = 'http://flink-gw.invalid:8083';
      assert.equal((await rejection(run(saved))).code, 'invalid_request');
      await c.api.setSettings({
        flink: { target: 'gateway', gatewayUrl: saved, flinkVersion: '1.20', parallelism: 1 },
      });
      const reached = await rejection(run(saved));
      assert.equal(reached.code, 'io_error', 'the saved gateway passes the allow-list');
      assert.match(reached.message, /cannot reach the SQL Gateway at http:\/\/flink-gw\.invalid:8083/);
      assert.equal(requests, 0, 'no request reached a refused host');
      assert.equal(c.events.filter((x) => x.type === 'flink.run').length, 0);
      // The loopback stand-in is allowed and reached (it is no gateway, so the run is refused after).
      const local = await rejection(run(`http://127.0.0.1:${port}`));
      assert.equal(local.code, 'io_error');
      assert.ok(requests > 0, 'a loopback gateway is reached');
    } finally {
      server.closeAllConnections();
      server.close();
      await c.close();
    }
  });

  it('an unreachable gateway is refused in one line and nothing runs', async () => {
    const c = connect();
    try {
      cpSync(join(EXAMPLES_DIR, 'orders-per-user'), join(c.workspace, 'orders'), { recursive: true });
      const job = JSON.parse(readFileSync(join(c.workspace, 'orders', 'job.weir.json'), 'utf8'));
      const port = await freePort();
      const e = await rejection(
        c.api.flinkRun({
          job,
          path: join(c.workspace, 'orders', 'job.weir.json'),
          target: { kind: 'gateway', url: `http://127.0.0.1:${port}` },
          flinkVersion: '1.20',
        }),
      );
      assert.equal(e.code, 'io_error');
      assert.equal(e.message, `cannot reach the SQL Gateway at http://127.0.0.1:${port} (ECONNREFUSED)`);
      assert.equal(c.events.filter((x) => x.type === 'flink.run').length, 0);
    } finally {
      await c.close();
    }
  });
});

/** Resolves with the first snapshot of the run for which `done` holds (Flink's JVM start takes seconds). */
async function until(
  events: HostEvent[],
  flinkRunId: string,
  done: (e: FlinkRunEvent) => boolean,
): Promise<FlinkRunEvent> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const hit = events.find(
      (e): e is FlinkRunEvent => e.type === 'flink.run' && e.flinkRunId === flinkRunId && done(e),
    );
    if (hit) return hit;
    if (Date.now() > deadline) assert.fail(`no snapshot of ${flinkRunId} as wanted: ${JSON.stringify(events.at(-1))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const skip = flinkSkipReason();
describe('flinkRun on the local MiniCluster (2.x)', { skip }, () => {
  let c: ReturnType<typeof connect>;
  before(() => {
    buildRunner('2.x');
    c = connect();
  });
  after(() => c?.close());

  it('runs the example to FINISHED on Flink 2.x: job id, vertices with records, no web UI', async () => {
    cpSync(join(EXAMPLES_DIR, 'orders-per-user'), join(c.workspace, 'orders'), { recursive: true });
    const path = join(c.workspace, 'orders', 'job.weir.json');
    const job = JSON.parse(readFileSync(path, 'utf8'));
    const started = await c.api.flinkRun({ job, path, target: { kind: 'local' }, flinkVersion: '2.x', parallelism: 2 });
    assert.equal(started.phase, 'starting');
    const end = await until(c.events, started.flinkRunId, (e) => e.phase === 'ended');
    assert.equal(end.ok, true, end.error);
    assert.equal(end.state, 'FINISHED');
    assert.match(end.jobId ?? '', /^[0-9a-f]{32}$/);
    assert.ok(end.vertices.some((v) => v.recordsOut > 0) && end.vertices.every((v) => v.parallelism >= 1));
    assert.equal(end.webUi, null);
  });

  it('Stop ends a local run (its cluster with it); a savepoint is refused there', async () => {
    const job: JobDocument = {
      format: 'weir.job/v1',
      name: 'gen-local',
      settings: {},
      nodes: [
        { id: 'gen', type: 'source.generator', config: { rate: 50, keys: 4, count: 100_000 } },
        { id: 'out', type: 'sink.file', config: { path: 'out/gen-local', format: 'jsonl' } },
      ],
      edges: [{ from: 'gen', to: 'out' }],
    };
    const path = join(c.workspace, 'gen-local.weir.json');
    const started = await c.api.flinkRun({ job, path, target: { kind: 'local' }, flinkVersion: '2.x' });
    await until(c.events, started.flinkRunId, (e) => e.state === 'RUNNING');
    const refused = await rejection(c.api.flinkStop({ flinkRunId: started.flinkRunId, savepoint: true }));
    assert.equal(refused.code, 'unsupported');
    assert.deepEqual(await c.api.flinkStop({ flinkRunId: started.flinkRunId }), {});
    const end = await until(c.events, started.flinkRunId, (e) => e.phase === 'ended');
    assert.equal(end.ok, false);
    assert.equal(end.error, 'stopped: the local Flink cluster ended with its JVM');
  });
});

describe('flinkRun on a Flink SQL Gateway (1.20)', { skip }, () => {
  let gateway: ChildProcess | undefined;
  let url = '';
  let c: ReturnType<typeof connect>;

  before(async () => {
    const classpath = buildRunner('1.20');
    const started = startGateway(classpath, await freePort());
    gateway = started.child;
    url = await started.url;
    c = connect();
  });
  after(async () => {
    await c?.close();
    if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
  });

  it('runs a bounded job to FINISHED: job id, vertices with records, checkpoints, the web UI', async () => {
    cpSync(join(EXAMPLES_DIR, 'orders-per-user'), join(c.workspace, 'orders'), { recursive: true });
    const path = join(c.workspace, 'orders', 'job.weir.json');
    const job = JSON.parse(readFileSync(path, 'utf8'));
    const started = await c.api.flinkRun({
      job,
      path,
      target: { kind: 'gateway', url },
      flinkVersion: '1.20',
      parallelism: 1,
    });
    assert.equal(started.target, 'gateway');
    assert.match(started.jobId ?? '', /^[0-9a-f]{32}$/);
    const end = await until(c.events, started.flinkRunId, (e) => e.phase === 'ended');
    assert.equal(end.state, 'FINISHED', end.error);
    assert.equal(end.ok, true);
    assert.equal(end.jobId, started.jobId);
    assert.ok(end.vertices.length > 0, 'Flink reported the job graph');
    assert.ok(
      end.vertices.some((v) => v.recordsOut > 0) && end.vertices.some((v) => v.recordsIn > 0),
      JSON.stringify(end.vertices),
    );
    assert.match(end.webUi ?? '', new RegExp(`^http://127\\.0\\.0\\.1:\\d+/#/job/completed/${end.jobId}$`));
    assert.ok(existsSync(join(c.workspace, 'orders', 'out', 'per_user')), 'the file sink wrote beside the job');
  });

  it('stops a long job with a savepoint beside the job', async () => {
    const path = join(c.workspace, 'gen.weir.json');
    // Bounded, but for half an hour: datagen's sequence keeps its range in every checkpoint, so an
    // unbounded generator's savepoint would be ~80 MB (engine/export/flink-sql/sources.ts).
    const job: JobDocument = {
      format: 'weir.job/v1',
      name: 'gen',
      settings: { checkpointing: { interval: '1s', dir: 'checkpoints' } },
      nodes: [
        { id: 'gen', type: 'source.generator', config: { rate: 50, keys: 4, count: 100_000 } },
        { id: 'out', type: 'sink.file', config: { path: 'out/gen', format: 'jsonl' } },
      ],
      edges: [{ from: 'gen', to: 'out' }],
    };
    const started = await c.api.flinkRun({ job, path, target: { kind: 'gateway', url }, flinkVersion: '1.20' });
    // A savepoint needs every task running, not only the job.
    await until(
      c.events,
      started.flinkRunId,
      (e) => e.state === 'RUNNING' && e.vertices.length > 0 && e.vertices.every((v) => v.status === 'RUNNING'),
    );
    const stopped = await c.api.flinkStop({ flinkRunId: started.flinkRunId, savepoint: true });
    assert.match(stopped.savepoint ?? '', /flink-savepoints\/savepoint-/);
    const local = stopped.savepoint!.replace(/^file:/, '');
    assert.ok(existsSync(join(local, '_metadata')), local);
    // The job may end before STOP JOB answers: the savepoint comes in the snapshot after.
    const end = await until(c.events, started.flinkRunId, (e) => e.phase === 'ended' && e.savepoint !== undefined);
    assert.equal(end.state, 'FINISHED');
    assert.equal(end.savepoint, stopped.savepoint);
    const again = await rejection(c.api.flinkStop({ flinkRunId: started.flinkRunId }));
    assert.equal(again.code, 'job_not_running');
  });
});
