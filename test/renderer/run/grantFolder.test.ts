/**
 * The renderer's entry to host `grantFolder`: a run refused with `forbidden_path` offers to allow a
 * folder for this document and runs again once one is granted; cancel (or served mode, without
 * native dialogs) leaves the refusal as it was.
 */
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineHost, HostInfo, RunInfo } from '../../../engine/host/common/api.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { docStore } from '../../../renderer/src/state.ts';
import { attachHost } from '../../../renderer/src/host.ts';
import { run } from '../../../renderer/src/run/runActions.ts';
import { runStore } from '../../../renderer/src/stores/runStore.ts';
import { canGrantFolder } from '../../../renderer/src/run/grantFolder.ts';

const INFO = (nativeDialogs: boolean): HostInfo => ({
  transport: nativeDialogs ? 'electron' : 'websocket',
  nativeDialogs,
  workspace: '/ws',
  initialPath: null,
  version: 'test',
});

function fakeHost(picked: string | null, info: HostInfo) {
  const calls: string[] = [];
  let granted = false;
  const h = {
    hostInfo: async () => info,
    run: async () => {
      calls.push('run');
      if (!granted)
        throw new HostError('forbidden_path', 'nodes[0].config.path: /data/in.jsonl is outside the workspace');
      return { runId: 'r1', jobName: 'j', status: 'running', startedAt: 1, restarts: 0 } satisfies RunInfo;
    },
    grantFolder: async (req: { path?: string }) => {
      calls.push(`grantFolder:${req.path ?? ''}`);
      granted = picked !== null;
      return { folder: picked };
    },
  };
  return { host: h as unknown as EngineHost, calls };
}

describe('a forbidden_path run refusal offers a folder grant', () => {
  const g = globalThis as { window?: unknown };
  let answer = true;
  beforeEach(() => {
    g.window = { confirm: () => answer };
    docStore.getState().load(
      {
        format: 'weir.job/v1',
        name: 'j',
        nodes: [
          { id: 'gen', type: 'source.generator', position: { x: 0, y: 0 }, config: { count: 10 } },
          { id: 'peek', type: 'sink.preview', position: { x: 200, y: 0 }, config: {} },
        ],
        edges: [{ from: 'gen', to: 'peek' }],
      },
      'jobs/j.weir.json',
    );
  });
  afterEach(() => {
    delete g.window;
  });

  it('grants the folder for this document and runs again', async () => {
    answer = true;
    const f = fakeHost('/data', INFO(true));
    await attachHost(f.host);
    assert.equal(canGrantFolder(), true);
    await run();
    assert.deepEqual(f.calls, ['run', 'grantFolder:jobs/j.weir.json', 'run']);
    assert.equal(runStore.getState().runId, 'r1');
  });

  it('stays refused when the person cancels the question or the dialog', async () => {
    answer = false;
    const f = fakeHost('/data', INFO(true));
    await attachHost(f.host);
    await run();
    assert.deepEqual(f.calls, ['run']);
    assert.equal(runStore.getState().status, 'idle');
    answer = true;
    const cancelled = fakeHost(null, INFO(true));
    await attachHost(cancelled.host);
    await run();
    assert.deepEqual(cancelled.calls, ['run', 'grantFolder:jobs/j.weir.json']);
    assert.equal(runStore.getState().status, 'idle');
  });

  it('is not offered in served mode (no native dialogs)', async () => {
    answer = true;
    const f = fakeHost('/data', INFO(false));
    await attachHost(f.host);
    assert.equal(canGrantFolder(), false);
    await run();
    assert.deepEqual(f.calls, ['run']);
  });
});
