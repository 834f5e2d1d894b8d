/**
 * EngineHost.importFlinkSql over the in-memory transport (the request and result schemas of
 * protocol.ts included), and exportJob's flinkVersion / pathPrefix options.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalHost } from '../../../engine/host/node/local-host.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';

const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/', import.meta.url));

test('importFlinkSql and exportJob(flinkVersion, pathPrefix) through the host API', async () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-host-import-')));
  const host = createLocalHost({
    workspace,
    examplesDir: EXAMPLES_DIR,
    transport: 'memory',
    version: 'test',
    eventInterval: 100,
  });
  const t = createMemoryTransport(host);
  try {
    const api = t.client;
    const job = JSON.parse(readFileSync(join(EXAMPLES_DIR, 'orders-per-user', 'job.weir.json'), 'utf8'));
    const v119 = await api.exportJob({
      job,
      format: 'flink-sql',
      flinkVersion: '1.19',
      pathPrefix: 's3://bucket/weir/',
    });
    assert.match(v119.text, /for Flink 1\.19:/);
    assert.match(v119.text, /'path' = 's3:\/\/bucket\/weir\/data\/orders\.jsonl'/);
    await assert.rejects(
      api.exportJob({ job, format: 'flink-sql', pathPrefix: 'bucket' }),
      (e: { code?: string; message?: string }) => /pathPrefix/.test(e.message ?? ''),
    );

    const sql = (await api.exportJob({ job, format: 'flink-sql' })).text;
    const imported = await api.importFlinkSql({ sql, path: join(workspace, 'imported.weir.json') });
    assert.deepEqual(imported.problems, []);
    assert.equal(imported.job.name, 'orders-per-user');
    assert.deepEqual(
      imported.job.nodes.map((n) => n.id),
      job.nodes.map((n: { id: string }) => n.id),
    );
    const bad = await api.importFlinkSql({ sql: 'CREATE VIEW v AS SELEC 1;' });
    assert.ok(
      bad.problems.some((p) => p.line === 1 && p.severity === 'error'),
      JSON.stringify(bad.problems),
    );
  } finally {
    t.close();
    await host.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
});
