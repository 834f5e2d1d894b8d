/**
 * The host API's behaviour, written once and run over every transport (memory-transport.test.ts,
 * ws-transport.test.ts, test/electron/ipc-transport.test.ts): whatever carries the calls, the UI sees
 * the same results and errors.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EngineHost, HostEvent } from '../../../engine/host/common/api.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { main as weirCli } from '../../../engine/cli/main.ts';

export const EXAMPLES_DIR = resolve(import.meta.dirname, '../../../examples');

export interface Connected {
  client: EngineHost;
  close(): Promise<void> | void;
}
export type Connect = (host: LocalHost) => Promise<Connected>;

async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<HostError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof HostError, `expected a HostError, got ${String(err)}`);
    assert.equal(err.code, code, `code of "${err.message}"`);
    if (message) assert.match(err.message, message);
    assert.ok(!/\n\s+at /.test(err.message), 'no stack trace crosses the transport');
    return err;
  }
  assert.fail(`expected rejection with ${code}`);
}

export function readExample(id: string): Promise<Record<string, unknown>> {
  return fs.readFile(join(EXAMPLES_DIR, id, 'job.weir.json'), 'utf8').then((t) => JSON.parse(t));
}

export function defineHostApiSuite(transport: string, connect: Connect): void {
  describe(`host API over ${transport}`, () => {
    let workspace: string;
    let outside: string;
    let host: LocalHost;
    let conn: Connected;
    let api: EngineHost;

    before(async () => {
      workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-host-ws-')));
      outside = realpathSync(mkdtempSync(join(tmpdir(), 'weir-host-outside-')));
      await fs.writeFile(join(outside, 'secret.weir.json'), '{"secret":true}');
      host = createLocalHost({
        workspace,
        examplesDir: EXAMPLES_DIR,
        transport: 'memory',
        version: 'test',
        eventInterval: 100,
      });
      conn = await connect(host);
      api = conn.client;
    });
    after(async () => {
      await conn.close();
      // Closing the connection ends its subscription: no listener leaks into the host.
      await waitFor(() => host.listenerCount === 0, 5000, 'the transport to unsubscribe');
      await host.dispose();
      await fs.rm(workspace, { recursive: true, force: true });
      await fs.rm(outside, { recursive: true, force: true });
    });

    it('describes itself', async () => {
      const info = await api.hostInfo({});
      assert.equal(info.workspace, workspace);
      assert.equal(info.nativeDialogs, false);
      assert.equal(info.initialPath, null);
    });

    it('validates a good job and names the problems of a bad one', async () => {
      const good = await api.validate({ job: await readExample('orders-per-user') });
      assert.equal(good.ok, true, JSON.stringify(good.problems));
      const job = await readExample('orders-per-user');
      (job.nodes as Array<{ config: Record<string, unknown> }>)[1].config.where = 'amount >';
      const bad = await api.validate({ job });
      assert.equal(bad.ok, false);
      assert.ok(
        bad.problems.some((p) => p.path === 'nodes[1].config.where' && p.nodeId === 'big'),
        JSON.stringify(bad.problems),
      );
    });

    it('validates a run with its overrides: parallelism above maxParallelism is refused, as weir validate refuses it', async () => {
      const { path, job } = await api.openExample({ id: 'orders-per-user' });
      const doc = job as { settings?: Record<string, unknown> };
      doc.settings = { ...doc.settings, maxParallelism: 4 };
      const err = await rejectsWith(
        api.run({ job: doc as never, path, parallelism: 8 }),
        'invalid_job',
        /settings\.parallelism: parallelism 8 is greater than maxParallelism 4/,
      );
      assert.ok(
        err.problems?.some((p) => p.path === 'settings.parallelism'),
        JSON.stringify(err.problems),
      );
      assert.deepEqual(
        (await api.listRuns({})).filter((r) => r.jobName === 'orders-per-user' && r.status === 'running'),
        [],
        'nothing runs',
      );
      const badInterval = await rejectsWith(
        api.run({ job: doc as never, path, checkpointing: { interval: 'soon' } }),
        'invalid_job',
      );
      assert.ok(
        badInterval.problems?.some((p) => p.path === 'settings.checkpointing.interval'),
        JSON.stringify(badInterval.problems),
      );
    });

    it('refuses to run an invalid job with invalid_job and its problems', async () => {
      const err = await rejectsWith(
        api.run({ job: { format: 'weir.job/v1', name: 'x', nodes: [], edges: [] } as never }),
        'invalid_job',
      );
      assert.ok(err.problems && err.problems.length > 0);
    });

    it('answers malformed requests with invalid_request naming the field', async () => {
      await rejectsWith(api.stop({ runId: 42 } as never), 'invalid_request', /params\.runId/);
      await rejectsWith(api.readJob({} as never), 'invalid_request', /params\.path/);
      await rejectsWith(api.exportJob({ job: {}, format: 'yaml' } as never), 'invalid_request', /params\.format/);
      await rejectsWith(api.listRuns({ extra: 1 } as never), 'invalid_request');
    });

    it('reports unknown runs as not_found', async () => {
      await rejectsWith(api.stop({ runId: 'nope' }), 'not_found', /nope/);
      await rejectsWith(api.killTaskProcess({ runId: 'nope' }), 'not_found');
      await rejectsWith(api.checkpointHistory({ runId: 'nope' }), 'not_found');
    });

    it('writes, lists and reads job files in the workspace', async () => {
      const job = await readExample('orders-per-user');
      const written = await api.writeJob({ path: 'jobs/mine.weir.json', job: job as never });
      assert.equal(written.path, join(workspace, 'jobs', 'mine.weir.json'));
      const files = await api.listFiles({});
      assert.ok(
        files.some((f) => f.path === written.path && f.name === join('jobs', 'mine.weir.json')),
        JSON.stringify(files),
      );
      const back = await api.readJob({ path: written.path });
      assert.deepEqual(back.job, job);
      await rejectsWith(api.readJob({ path: 'missing.weir.json' }), 'not_found');
      await fs.writeFile(join(workspace, 'broken.weir.json'), '{ nope');
      await rejectsWith(api.readJob({ path: 'broken.weir.json' }), 'invalid_job', /not valid JSON/);
    });

    it('lists Flink SQL scripts beside the jobs and reads one, a .sql file only', async () => {
      await fs.mkdir(join(workspace, 'scripts'), { recursive: true });
      await fs.writeFile(join(workspace, 'scripts', 'q.sql'), 'SELECT 1;\n');
      await fs.writeFile(join(workspace, 'notes.txt'), 'not listed');
      const names = (await api.listFiles({})).map((f) => f.name);
      assert.ok(names.includes(join('scripts', 'q.sql')), JSON.stringify(names));
      assert.ok(!names.includes('notes.txt'), JSON.stringify(names));
      const r = await api.readSqlScript({ path: 'scripts/q.sql' });
      assert.deepEqual(r, { path: join(workspace, 'scripts', 'q.sql'), sql: 'SELECT 1;\n' });
      await rejectsWith(api.readSqlScript({ path: 'notes.txt' }), 'forbidden_path', /must end in \.sql/);
      await rejectsWith(api.readSqlScript({ path: 'missing.sql' }), 'not_found');
      await rejectsWith(api.readSqlScript({ path: join(outside, 'x.sql') }), 'forbidden_path');
    });

    it('refuses every path outside the workspace', async () => {
      await rejectsWith(api.readJob({ path: '../secret.weir.json' }), 'forbidden_path');
      await rejectsWith(api.readJob({ path: join(outside, 'secret.weir.json') }), 'forbidden_path');
      await rejectsWith(
        api.readJob({ path: `jobs/../../${outside.split('/').pop()}/secret.weir.json` }),
        'forbidden_path',
      );
      await rejectsWith(api.readJob({ path: '/etc/passwd' }), 'forbidden_path');
      await rejectsWith(api.listFiles({ dir: outside }), 'forbidden_path');
      await rejectsWith(api.writeJob({ path: join(outside, 'x.weir.json'), job: {} as never }), 'forbidden_path');
      await rejectsWith(api.writeJob({ path: 'evil.sh', job: {} as never }), 'forbidden_path');
      // A symlink inside the workspace that leads outside is still outside.
      await fs.symlink(outside, join(workspace, 'link'));
      await fs.symlink(join(outside, 'secret.weir.json'), join(workspace, 'secret-link.weir.json'));
      await rejectsWith(api.readJob({ path: 'link/secret.weir.json' }), 'forbidden_path');
      await rejectsWith(api.readJob({ path: 'secret-link.weir.json' }), 'forbidden_path');
      await rejectsWith(api.writeJob({ path: 'link/new/x.weir.json', job: {} as never }), 'forbidden_path');
      await assert.rejects(fs.stat(join(outside, 'new')), 'nothing was created outside');
      await rejectsWith(
        api.run({ job: (await readExample('orders-per-user')) as never, path: join(outside, 'secret.weir.json') }),
        'forbidden_path',
      );
    });

    it('lists the bundled examples and opens one as a workspace copy', async () => {
      const examples = await api.listExamples({});
      const orders = examples.find((e) => e.id === 'orders-per-user');
      assert.ok(orders, JSON.stringify(examples));
      assert.equal(orders.name, 'Orders per user');
      const opened = await api.openExample({ id: 'orders-per-user' });
      assert.equal(opened.path, join(workspace, 'orders-per-user', 'job.weir.json'));
      assert.equal((opened.job as { name: string }).name, 'orders-per-user');
      await fs.access(join(workspace, 'orders-per-user', 'data', 'orders.jsonl'));
      // The read-only example itself may be read, never written.
      assert.equal((await api.readJob({ path: orders.path })).path, orders.path);
      await rejectsWith(api.writeJob({ path: orders.path, job: opened.job as never }), 'forbidden_path');
      await rejectsWith(api.openExample({ id: 'nope' }), 'not_found');
      // Running in place would write outputs into the install: runs need a workspace copy.
      await rejectsWith(api.run({ job: opened.job as never, path: orders.path }), 'forbidden_path');
    });

    it('exports a job as JSON (the very document weir export writes) and as Flink SQL', async () => {
      const opened = await api.openExample({ id: 'orders-per-user' });
      const out = await api.exportJob({ job: opened.job as never, format: 'json', path: opened.path });
      let cliText = '';
      const code = await weirCli(['export', opened.path, '--format', 'json'], {
        out: (t) => {
          cliText += t;
        },
        err: () => undefined,
      });
      assert.equal(code, 0);
      assert.equal(out.text, cliText);
      // Normalized, not the document as sent: defaults written out (every edge's port), no $schema.
      const raw = opened.job as { $schema?: string; edges: Array<{ fromPort?: string }> };
      const doc = JSON.parse(out.text) as { $schema?: string; edges: Array<{ fromPort?: string }> };
      assert.ok(raw.$schema && raw.edges.some((e) => e.fromPort === undefined), 'the example leaves defaults out');
      assert.equal(doc.$schema, undefined);
      assert.ok(
        doc.edges.every((e) => e.fromPort === 'out'),
        out.text,
      );
      await rejectsWith(api.exportJob({ job: { name: 'x' } as never, format: 'json' }), 'invalid_job');
      const sql = await api.exportJob({ job: opened.job as never, format: 'flink-sql', path: opened.path });
      assert.match(sql.text, /CREATE TABLE/i);
      // Relative data paths resolved against the job's own folder (the exporter sampled the file).
      assert.ok(sql.text.includes(join(workspace, 'orders-per-user')), sql.text.slice(0, 400));
      await rejectsWith(api.exportJob({ job: { name: 'x' } as never, format: 'flink-sql' }), 'invalid_job');
    });

    it("samples a source's columns and types from its data, inside the workspace only", async () => {
      const opened = await api.openExample({ id: 'orders-per-user' });
      const job = opened.job as { nodes: Array<{ id: string; type: string; config: Record<string, unknown> }> };
      const sampled = await api.sampleSource({ job: job as never, nodeId: 'orders', path: opened.path });
      const types = Object.fromEntries(sampled.columns.map((c) => [c.name, c.type]));
      assert.equal(types.user, 'STRING');
      assert.equal(types.amount !== undefined, true, JSON.stringify(sampled));
      assert.equal(sampled.message, undefined);
      const gen = {
        ...job,
        nodes: [{ id: 'g', type: 'source.generator', name: 'g', position: { x: 0, y: 0 }, config: {} }],
      };
      assert.deepEqual(
        (await api.sampleSource({ job: gen as never, nodeId: 'g' })).columns.map((c) => c.name),
        ['seq', 'key', 'value', 'ts'],
      );
      const missing = structuredClone(job);
      missing.nodes[0].config.path = 'data/none.jsonl';
      assert.match(
        (await api.sampleSource({ job: missing as never, nodeId: 'orders', path: opened.path })).message ?? '',
        /cannot read/,
      );
      const outside = structuredClone(job);
      outside.nodes[0].config.path = '/etc/passwd';
      await rejectsWith(
        api.sampleSource({ job: outside as never, nodeId: 'orders', path: opened.path }),
        'forbidden_path',
      );
      await rejectsWith(api.sampleSource({ job: job as never, nodeId: 'big', path: opened.path }), 'unsupported');
      await rejectsWith(api.sampleSource({ job: job as never, nodeId: 'nope' }), 'not_found');
    });

    it('says native dialogs are unsupported without a shell', async () => {
      await rejectsWith(api.showOpenDialog({}), 'unsupported');
      await rejectsWith(api.grantFolder({ path: 'a.weir.json' }), 'unsupported');
      await api.setDocumentState({ title: 'x', dirty: true });
    });

    it('runs the bundled example to completion, with throttled live events', async () => {
      const { path, job } = await api.openExample({ id: 'orders-per-user' });
      const events: HostEvent[] = [];
      const off = api.onEvent((e) => events.push(e));
      const info = await api.run({ job: job as never, path });
      assert.equal(info.jobName, 'orders-per-user');
      const finished = () =>
        events.some((e) => e.type === 'job.status' && e.runId === info.runId && e.status === 'finished');
      await waitFor(finished, 60_000, 'the run to finish');
      off();
      const statuses = events.filter((e) => e.type === 'job.status').map((e) => (e as { status: string }).status);
      assert.equal(statuses.at(-1), 'finished');
      assert.ok(statuses.includes('running'), statuses.join(','));
      const mine = events.filter((e) => 'runId' in e && e.runId === info.runId);
      assert.equal(mine.length, events.filter((e) => e.type !== 'app.command').length, 'every event names its run');
      const runs = await api.listRuns({});
      assert.equal(runs.find((r) => r.runId === info.runId)?.status, 'finished');
      const history = await api.checkpointHistory({ runId: info.runId });
      assert.ok(history.every((c) => c.id > 0));
      const out = await fs.readdir(join(workspace, 'orders-per-user', 'out', 'per_user'));
      assert.ok(out.length > 0, 'the sink committed its files into the workspace copy');
      await rejectsWith(api.stop({ runId: info.runId }), 'job_not_running');
      const retained = await api.listCheckpoints({ job: job as never, path });
      assert.ok(
        retained.every((c) => c.path.startsWith(join(workspace, 'orders-per-user'))),
        JSON.stringify(retained),
      );
    });

    it('refuses a second run of a running job, stops with a savepoint and restores from it', async () => {
      const job = {
        format: 'weir.job/v1',
        name: 'ticker',
        settings: { stateBackend: 'fs', checkpointing: { interval: '200ms' }, restart: { attempts: 3, delay: '50ms' } },
        nodes: [
          { id: 'gen', type: 'source.generator', config: { seed: 1, rate: 400, keys: 4 } },
          { id: 'peek', type: 'sink.preview', config: { limit: 5 } },
        ],
        edges: [{ from: 'gen', to: 'peek' }],
      };
      await api.writeJob({ path: 'ticker/ticker.weir.json', job: job as never });
      const path = join(workspace, 'ticker', 'ticker.weir.json');
      const events: HostEvent[] = [];
      const off = api.onEvent((e) => events.push(e));
      const info = await api.run({ job: job as never, path });
      await waitFor(
        () => events.some((e) => e.type === 'checkpoint' && e.runId === info.runId && e.stats.status === 'completed'),
        30_000,
        'a checkpoint',
      );
      await rejectsWith(api.run({ job: job as never, path }), 'already_running', /ticker/);

      await api.killTaskProcess({ runId: info.runId });
      await waitFor(() => events.some((e) => e.type === 'job.restart' && e.runId === info.runId), 30_000, 'a restart');
      await waitFor(
        () =>
          (
            events.filter((e) => e.type === 'job.status' && e.runId === info.runId).at(-1) as
              { status?: string } | undefined
          )?.status === 'running',
        30_000,
        'running again',
      );

      const sp = await api.triggerSavepoint({ runId: info.runId });
      assert.ok(sp.id > 0);
      const stopped = await api.stop({ runId: info.runId, savepoint: true });
      assert.ok(stopped.savepoint, 'stop with savepoint returns its path');
      await waitFor(
        () => events.some((e) => e.type === 'job.status' && e.runId === info.runId && e.status === 'stopped'),
        30_000,
        'stopped',
      );
      const retained = await api.listCheckpoints({ job: job as never, path });
      assert.ok(
        retained.some((c) => c.kind === 'savepoint' && c.path === stopped.savepoint),
        JSON.stringify(retained),
      );

      const again = await api.run({ job: job as never, path, restoreFrom: stopped.savepoint });
      await waitFor(
        () => events.some((e) => e.type === 'job.status' && e.runId === again.runId && e.status === 'running'),
        30_000,
        'restored run',
      );
      await api.stop({ runId: again.runId });
      await waitFor(
        () =>
          events.some(
            (e) =>
              e.type === 'job.status' &&
              e.runId === again.runId &&
              ['stopped', 'canceled', 'finished'].includes(e.status),
          ),
        30_000,
        'second stop',
      );
      off();
      const metrics = events.filter((e) => e.type === 'metrics' && e.runId === info.runId).length;
      const seconds = (Date.now() - info.startedAt) / 1000;
      assert.ok(metrics <= seconds * 10 + 5, `${metrics} metrics events in ${seconds.toFixed(1)}s: throttled`);
      await rejectsWith(api.run({ job: job as never, path, restoreFrom: '/etc' }), 'forbidden_path');
    });

    it('lets exactly one of two simultaneous runs of a job start', async () => {
      const job = {
        format: 'weir.job/v1',
        name: 'twins',
        settings: { stateBackend: 'memory' },
        nodes: [
          { id: 'gen', type: 'source.generator', config: { rate: 100, keys: 2 } },
          { id: 'peek', type: 'sink.preview', config: {} },
        ],
        edges: [{ from: 'gen', to: 'peek' }],
      };
      const results = await Promise.allSettled([api.run({ job: job as never }), api.run({ job: job as never })]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      assert.equal(won.length, 1, JSON.stringify(results));
      assert.equal((lost[0].reason as HostError).code, 'already_running');
      const runId = (won[0] as PromiseFulfilledResult<{ runId: string }>).value.runId;
      await api.stop({ runId });
      const start = Date.now();
      while (Date.now() - start < 20_000) {
        const st = (await api.listRuns({})).find((r) => r.runId === runId)?.status;
        if (st && ['stopped', 'canceled', 'finished'].includes(st)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(
        ['stopped', 'canceled', 'finished'].includes((await api.listRuns({})).find((r) => r.runId === runId)!.status),
      );
    });

    it('delivers app commands as events', async () => {
      const seen: HostEvent[] = [];
      const off = api.onEvent((e) => seen.push(e));
      host.sendAppCommand('run');
      await waitFor(() => seen.some((e) => e.type === 'app.command' && e.command === 'run'));
      off();
      // A listener still subscribed hears 'stop': by then the unsubscribed one would have too.
      const still: HostEvent[] = [];
      const offStill = api.onEvent((e) => still.push(e));
      host.sendAppCommand('stop');
      await waitFor(() => still.some((e) => e.type === 'app.command' && e.command === 'stop'));
      offStill();
      assert.ok(
        !seen.some((e) => e.type === 'app.command' && e.command === 'stop'),
        'unsubscribed listeners get nothing',
      );
    });
  });
}

export async function waitFor(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
