/**
 * Host `readSinkOutput` (the app's committed-output viewer) over the in-memory transport: a file
 * sink's committed files newest first and paged, never a pending transaction or a foreign file,
 * CSV under its header, confined to the workspace; a PostgreSQL sink's table newest first; and
 * `openFolder`, which only a desktop shell has.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineHost } from '../../../engine/host/common/api.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { startPgCluster, type PgCluster } from '../../support/postgres-cluster.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  return assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof HostError, String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const jobWith = (sink: Record<string, unknown>): JobDocument =>
  ({
    format: 'weir.job/v1',
    name: 'viewer',
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 1 } },
      { id: 'out', ...sink },
    ],
    edges: [{ from: 'gen', to: 'out' }],
  }) as JobDocument;

describe('host readSinkOutput and openFolder', () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-viewer-')));
  const opened: string[] = [];
  let host: LocalHost;
  let served: LocalHost;
  let api: EngineHost;
  let servedApi: EngineHost;
  const closers: Array<() => void> = [];

  before(() => {
    const dir = join(workspace, 'jobs', 'out', 'rows');
    mkdirSync(join(dir, '.pending-a1-0-3'), { recursive: true });
    const older = join(dir, 'part-a1-0-000001.jsonl');
    writeFileSync(older, '{"n":1}\n{"n":2}\n{"n":3}\n');
    utimesSync(older, new Date(1_000_000), new Date(1_000_000));
    writeFileSync(join(dir, 'part-a1-0-000002.jsonl'), '{"n":4}\n{"n":5}\n');
    writeFileSync(join(dir, '.pending-a1-0-3', 'data.jsonl'), '{"n":6}\n');
    writeFileSync(join(dir, 'notes.txt'), 'not output\n');
    mkdirSync(join(workspace, 'jobs', 'out', 'table'), { recursive: true });
    writeFileSync(join(workspace, 'jobs', 'out', 'table', 'part-b2-1-end.csv'), 'k,v\na,"1,5"\nb,2\n');
    host = createLocalHost({
      workspace,
      examplesDir: EXAMPLES_DIR,
      transport: 'electron',
      shell: { openFolder: async (f) => void opened.push(f) },
    });
    served = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR, transport: 'websocket' });
    for (const [h, set] of [
      [host, (c: EngineHost) => (api = c)],
      [served, (c: EngineHost) => (servedApi = c)],
    ] as const) {
      const t = createMemoryTransport(h);
      set(t.client);
      closers.push(() => t.close());
    }
  });
  after(async () => {
    for (const c of closers) c();
    await host.dispose();
    await served.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('a file sink: committed rows newest first, paged; pending transactions and foreign files left out', async () => {
    const job = jobWith({ type: 'sink.file', config: { path: 'out/rows', format: 'jsonl' } });
    const path = join(workspace, 'jobs', 'job.weir.json');
    const first = await api.readSinkOutput({ job, path, nodeId: 'out', limit: 3 });
    assert.deepEqual(first, {
      kind: 'folder',
      location: join(workspace, 'jobs', 'out', 'rows'),
      offset: 0,
      rows: [{ n: 5 }, { n: 4 }, { n: 3 }],
      total: 5,
      files: 2,
    });
    const next = await api.readSinkOutput({ job, path, nodeId: 'out', offset: 3, limit: 3 });
    assert.deepEqual(next.rows, [{ n: 2 }, { n: 1 }]);
    const none = await api.readSinkOutput({ job, path, nodeId: 'out', limit: 0 });
    assert.deepEqual([none.rows, none.total], [[], 5]);
  });

  it('a CSV sink reads its rows under the header; a sink that never ran has nothing committed', async () => {
    const path = join(workspace, 'jobs', 'job.weir.json');
    const csv = jobWith({ type: 'sink.file', config: { path: 'out/table', format: 'csv' } });
    assert.deepEqual((await api.readSinkOutput({ job: csv, path, nodeId: 'out' })).rows, [
      { k: 'b', v: '2' },
      { k: 'a', v: '1,5' },
    ]);
    const fresh = jobWith({ type: 'sink.file', config: { path: 'out/never', format: 'jsonl' } });
    const r = await api.readSinkOutput({ job: fresh, path, nodeId: 'out' });
    assert.deepEqual([r.total, r.rows, r.location], [0, [], join(workspace, 'jobs', 'out', 'never')]);
  });

  it('refuses a folder outside the workspace, a node that keeps no output and an unknown node', async () => {
    const outside = jobWith({ type: 'sink.file', config: { path: '/etc', format: 'jsonl' } });
    await rejectsWith(api.readSinkOutput({ job: outside, nodeId: 'out' }), 'forbidden_path', /outside the workspace/);
    const preview = jobWith({ type: 'sink.preview', config: {} });
    await rejectsWith(
      api.readSinkOutput({ job: preview, nodeId: 'out' }),
      'unsupported',
      /only file and PostgreSQL sinks/,
    );
    await rejectsWith(api.readSinkOutput({ job: preview, nodeId: 'nope' }), 'not_found', /no node 'nope'/);
  });

  it('openFolder: the shell shows a workspace folder; served mode has none; outside the workspace is refused', async () => {
    await api.openFolder({ folder: join(workspace, 'jobs', 'out', 'rows') });
    assert.deepEqual(opened, [join(workspace, 'jobs', 'out', 'rows')]);
    await rejectsWith(api.openFolder({ folder: '/etc' }), 'forbidden_path');
    await rejectsWith(servedApi.openFolder({ folder: workspace }), 'unsupported', /no file manager/);
  });

  describe('a PostgreSQL sink', () => {
    let pg: PgCluster;
    before(async () => {
      pg = await startPgCluster();
      await pg.query('CREATE TABLE public.totals (k text PRIMARY KEY, n bigint, at timestamptz)');
      for (let i = 1; i <= 5; i++)
        await pg.query('INSERT INTO public.totals VALUES ($1, $2, $3)', [`k${i}`, i, new Date(Date.UTC(2024, 0, i))]);
      await pg.query("UPDATE public.totals SET n = 20 WHERE k = 'k2'");
    });
    after(async () => {
      await pg?.stop();
    });

    it('reads the table newest change first, paged, values as JSON gives them', async () => {
      const job = jobWith({ type: 'sink.postgres', config: { url: pg.url, table: 'totals', mode: 'append' } });
      const r = await api.readSinkOutput({ job, nodeId: 'out', limit: 3 });
      assert.equal(r.kind, 'table');
      assert.equal(r.location, 'public.totals');
      assert.equal(r.total, 5);
      assert.deepEqual(
        r.rows.map((x) => [x.k, x.n]),
        [
          ['k2', '20'],
          ['k5', '5'],
          ['k4', '4'],
        ],
      );
      assert.equal(r.rows[1].at, '2024-01-05T00:00:00.000Z');
      const rest = await api.readSinkOutput({ job, nodeId: 'out', offset: 3, limit: 3 });
      assert.deepEqual(
        rest.rows.map((x) => x.k),
        ['k3', 'k1'],
      );
    });

    it('names the field when the table is missing, and reads only allowed environment variables', async () => {
      const missing = jobWith({ type: 'sink.postgres', config: { url: pg.url, table: 'nope', mode: 'append' } });
      await rejectsWith(api.readSinkOutput({ job: missing, nodeId: 'out' }), 'io_error', /nodes\[1\]\.config\.table/);
      const secret = jobWith({
        type: 'sink.postgres',
        config: { url: pg.url, table: 'totals', mode: 'append', passwordEnv: 'HOME' },
      });
      await rejectsWith(
        api.readSinkOutput({ job: secret, nodeId: 'out' }),
        'invalid_job',
        /passwordEnv: .*HOME may not be read/,
      );
    });
  });
});
