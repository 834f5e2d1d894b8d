/**
 * Host `grantFolder` over the in-memory transport with a fake desktop shell: the folder a person
 * picks in the directory dialog becomes readable and writable for the runs (and source sampling)
 * of that one document, not for any other; cancel is null; served mode (no dialog) is
 * `unsupported`; a document the host may not write gets no folder and no dialog.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineHost, HostEvent } from '../../../engine/host/common/api.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { createMemoryTransport } from '../../../engine/host/common/memory-transport.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  return assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof HostError, String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('host grantFolder: a folder the user picked for one document', () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-grant-ws-')));
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'weir-grant-else-')));
  let answer: string | null = elsewhere;
  let dialogs = 0;
  let host: LocalHost;
  let api: EngineHost;
  let close: () => void;
  const job = {
    format: 'weir.job/v1',
    name: 'outside-data',
    nodes: [
      { id: 'src', type: 'source.file', config: { path: join(elsewhere, 'in.jsonl'), format: 'jsonl' } },
      { id: 'out', type: 'sink.file', config: { path: join(elsewhere, 'out'), format: 'jsonl' } },
    ],
    edges: [{ from: 'src', to: 'out' }],
  };

  before(() => {
    writeFileSync(join(elsewhere, 'in.jsonl'), '{"k":"a","v":1}\n{"k":"b","v":2}\n');
    host = createLocalHost({
      workspace,
      examplesDir: EXAMPLES_DIR,
      transport: 'electron',
      eventInterval: 50,
      shell: {
        showFolderDialog: async () => {
          dialogs++;
          return answer;
        },
      },
    });
    const t = createMemoryTransport(host);
    api = t.client;
    close = () => t.close();
  });
  after(async () => {
    close();
    await host.dispose();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('refuses the run until the folder is granted, then runs it for that document only', async () => {
    for (const p of ['a.weir.json', 'b.weir.json']) await api.writeJob({ path: p, job: job as never });
    await rejectsWith(
      api.run({ job: job as never, path: 'a.weir.json' }),
      'forbidden_path',
      /nodes\[0\]\.config\.path/,
    );

    assert.deepEqual(await api.grantFolder({ path: 'a.weir.json' }), { folder: elsewhere });
    const sampled = await api.sampleSource({ job: job as never, nodeId: 'src', path: 'a.weir.json' });
    assert.deepEqual(
      sampled.columns.map((c) => c.name),
      ['k', 'v'],
    );

    const events: HostEvent[] = [];
    const off = api.onEvent((e) => events.push(e));
    const { runId } = await api.run({ job: job as never, path: 'a.weir.json' });
    await until(
      () => events.some((e) => e.type === 'job.status' && e.runId === runId && e.status === 'finished'),
      'the run to finish',
    );
    off();
    // Committed files only: in-progress ones are hidden (dot) files.
    const files = readdirSync(join(elsewhere, 'out'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.jsonl') && !f.split('/').some((part) => part.startsWith('.')),
    );
    const rows = files.flatMap((f) =>
      readFileSync(join(elsewhere, 'out', f), 'utf8')
        .trim()
        .split('\n'),
    );
    assert.equal(rows.length, 2, `the sink committed into the granted folder: ${files.join(', ')}`);

    // Another document, and the unsaved one, did not get the folder.
    await rejectsWith(api.run({ job: job as never, path: 'b.weir.json' }), 'forbidden_path', /outside the workspace/);
    await rejectsWith(api.run({ job: job as never }), 'forbidden_path');
    await rejectsWith(api.sampleSource({ job: job as never, nodeId: 'src', path: 'b.weir.json' }), 'forbidden_path');
  });

  it('answers null on cancel, and asks nothing for a document it may not write', async () => {
    answer = null;
    assert.deepEqual(await api.grantFolder({ path: 'b.weir.json' }), { folder: null });
    const before = dialogs;
    await rejectsWith(api.grantFolder({ path: '/etc/passwd' }), 'forbidden_path');
    assert.equal(dialogs, before, 'no dialog for a refused document');
    await rejectsWith(api.grantFolder({ path: 'a.weir.json', extra: 1 } as never), 'invalid_request');
  });

  it('is unsupported without native dialogs (served mode)', async () => {
    const served = createLocalHost({ workspace, examplesDir: EXAMPLES_DIR, transport: 'websocket' });
    const t = createMemoryTransport(served);
    await rejectsWith(t.client.grantFolder({ path: 'a.weir.json' }), 'unsupported', /no native dialogs/);
    t.close();
    await served.dispose();
  });
});
