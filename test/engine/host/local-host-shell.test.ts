/**
 * The desktop shell's hooks on the local host: a file chosen in a native dialog becomes readable
 * and writable wherever it is, and nothing else beside it does; hostInfo reports the dialogs.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalHost } from '../../../engine/host/node/local-host.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { EXAMPLES_DIR } from './host-api-suite.ts';

describe('local host with a desktop shell', () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-shell-ws-')));
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'weir-shell-else-')));
  after(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('grants exactly the files the user picked', async () => {
    const picked = join(elsewhere, 'picked.weir.json');
    const sibling = join(elsewhere, 'sibling.weir.json');
    writeFileSync(picked, '{"name":"picked"}');
    writeFileSync(sibling, '{"name":"sibling"}');
    const states: unknown[] = [];
    let answer: string | null = picked;
    const host = createLocalHost({
      workspace,
      examplesDir: EXAMPLES_DIR,
      transport: 'electron',
      shell: {
        setDocumentState: (s) => states.push(s),
        showOpenDialog: async () => answer,
        showSaveDialog: async (suggested) => suggested ?? null,
      },
    });
    const info = await host.hostInfo({});
    assert.equal(info.nativeDialogs, true);
    await assert.rejects(
      host.readJob({ path: picked }),
      (e: unknown) => e instanceof HostError && e.code === 'forbidden_path',
    );
    assert.deepEqual(await host.showOpenDialog({}), { path: picked });
    assert.deepEqual((await host.readJob({ path: picked })).job, { name: 'picked' });
    await host.writeJob({ path: picked, job: { name: 'changed' } as never });
    assert.deepEqual((await host.readJob({ path: picked })).job, { name: 'changed' });
    await assert.rejects(
      host.readJob({ path: sibling }),
      (e: unknown) => e instanceof HostError && e.code === 'forbidden_path',
    );

    const saveAs = join(elsewhere, 'new.weir.json');
    assert.deepEqual(await host.showSaveDialog({ suggestedPath: saveAs }), { path: saveAs });
    await host.writeJob({ path: saveAs, job: { name: 'new' } as never });
    answer = null;
    assert.deepEqual(await host.showOpenDialog({}), { path: null }, 'cancel is null, not an error');

    await host.setDocumentState({ title: 'picked', dirty: true, path: picked });
    assert.deepEqual(states, [{ title: 'picked', dirty: true, path: picked }]);
    await host.dispose();
  });
});
