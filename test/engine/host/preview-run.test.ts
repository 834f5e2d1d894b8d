/**
 * EngineHost.previewRun and traceRecord over the in-memory transport (request and result schemas
 * of protocol.ts included): an example opened into the workspace previews with sinks off, a record
 * traces to the window result it counted in, and a source outside the workspace is refused as a
 * run would refuse it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalHost } from '../../../engine/host/node/local-host.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';

const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/', import.meta.url));

test('previewRun and traceRecord through the host API', async () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-host-preview-')));
  const host = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR, transport: 'memory', version: 'test' });
  const t = createMemoryTransport(host);
  try {
    const api = t.client;
    const opened = await api.openExample({ id: 'orders-per-user' });
    const job = opened.job as JobDocument;
    const p = await api.previewRun({ job, path: opened.path, records: 40 });
    assert.deepEqual(p.sources.orders, { records: 40, ended: false });
    assert.equal(p.nodes.big.rowsIn, 40);
    assert.ok((p.nodes.out.wouldWrite ?? []).length > 0, 'the sink shows what it would write');
    assert.equal(existsSync(join(workspace, dirname(opened.path), 'out')), false, 'nothing written');

    const trace = await api.traceRecord({ job, path: opened.path, target: { source: 'orders', index: 3 } });
    assert.ok(trace.record, 'the record is in the sample');
    assert.ok(trace.nodes.per_user.contributed.length > 0, 'it counted in a window result');

    await assert.rejects(
      api.traceRecord({ job, path: opened.path, target: { source: 'nope', index: 0 } }),
      (e: { code?: string; message?: string }) => e.code === 'not_found' && /target\.source/.test(e.message ?? ''),
    );
    const outside = structuredClone(job);
    (outside.nodes[0].config as { path: string }).path = '/etc/hostname';
    await assert.rejects(api.previewRun({ job: outside, path: opened.path }), (e: { code?: string }) =>
      ['forbidden_path', 'invalid_job'].includes(e.code ?? ''),
    );
  } finally {
    t.close?.();
    rmSync(workspace, { recursive: true, force: true });
  }
});
