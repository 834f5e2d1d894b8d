/**
 * The spare task process (runtime/job/spare-launcher.ts) with real forked task processes: a run
 * takes the spare and runs to the end on it, the next spare starts after, a spare started under
 * another environment or dead while idle is never handed out, `dispose` kills it, and it never
 * outlives its host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { validateJob } from '../../../../engine/graph/validate.ts';
import type { TaskLauncher, TaskProcessHandle, RunEvent } from '../../../../engine/runtime/job/api.ts';
import { forkLauncher } from '../../../../engine/runtime/job/launcher.ts';
import { startJob } from '../../../../engine/runtime/job/job-runner.ts';
import { spareLauncher } from '../../../../engine/runtime/job/spare-launcher.ts';
import { isAlive, tempDir, waitFor, waitForExit } from '../../../support/run-helpers.ts';

interface Launched {
  handle: TaskProcessHandle;
  exit: { code: number | null; signal: string | null } | null;
}

/** The real fork launcher, remembering every process it started and how each ended. */
function recording(): { launcher: TaskLauncher; launched: Launched[] } {
  const base = forkLauncher();
  const launched: Launched[] = [];
  return {
    launched,
    launcher: {
      launch() {
        const l: Launched = { handle: base.launch(), exit: null };
        l.handle.onExit((info) => (l.exit = info));
        launched.push(l);
        return l.handle;
      },
    },
  };
}

test(
  'a run takes the spare and runs on it; the next spare starts after its first metrics',
  { timeout: 60_000 },
  async () => {
    const { dir, cleanup } = tempDir('spare-run');
    const { launcher, launched } = recording();
    const spare = spareLauncher(launcher);
    try {
      assert.equal(launched.length, 1, 'the spare starts with the launcher');
      const v = validateJob(
        {
          format: 'weir.job/v1',
          name: 'spare',
          settings: { checkpointing: { interval: '100ms' } },
          nodes: [
            { id: 'gen', type: 'source.generator', config: { count: 3000, rate: 10_000, keys: 3 } },
            { id: 'pv', type: 'sink.preview', config: { limit: 3 } },
          ],
          edges: [{ from: 'gen', to: 'pv' }],
        },
        { baseDir: dir },
      );
      assert.ok(v.ok);
      const events: RunEvent[] = [];
      const handle = await startJob({
        job: v.job,
        launcher: spare,
        onEvent: (e) => events.push(e),
        metricsInterval: 100,
      });
      const result = await handle.done;
      assert.equal(result.status, 'finished');
      const out = events.flatMap((e) =>
        e.type === 'metrics' ? e.operators.filter((o) => o.nodeId === 'gen').map((o) => o.recordsOut) : [],
      );
      assert.equal(out.at(-1), 3000, 'every record went out');
      await waitFor(() => launched[0].exit !== null, 'the run to end its task process');
      assert.equal(launched[0].exit!.code, 0, 'the spare ran the job and closed');
      await waitFor(() => launched.length === 2, 'the next spare');
      assert.equal(launched[1].exit, null, 'the next spare waits');
      spare.dispose();
      await waitFor(() => launched[1].exit !== null, 'dispose to kill the spare');
      assert.equal(launched[1].exit!.signal, 'SIGKILL');
      assert.equal(launched.length, 2, 'no spare starts after dispose');
    } finally {
      spare.dispose();
      for (const l of launched) l.handle.kill();
      cleanup();
    }
  },
);

test('a spare started under another environment is killed and a fresh process serves the launch', async () => {
  const { launcher, launched } = recording();
  const spare = spareLauncher(launcher, { refillDelayMs: 60_000 });
  try {
    process.env.WEIR_SPARE_LAUNCHER_TEST = 'changed';
    const handle = spare.launch();
    assert.equal(launched.length, 2);
    assert.equal(handle, launched[1].handle, 'a fresh process');
    await waitFor(() => launched[0].exit !== null, 'the stale spare to be killed');
    assert.equal(launched[0].exit!.signal, 'SIGKILL');
  } finally {
    delete process.env.WEIR_SPARE_LAUNCHER_TEST;
    spare.dispose();
    for (const l of launched) l.handle.kill();
  }
});

test('a spare that died while idle is never handed out', async () => {
  const { launcher, launched } = recording();
  const spare = spareLauncher(launcher, { refillDelayMs: 60_000 });
  try {
    launched[0].handle.kill('SIGKILL');
    await waitFor(() => launched[0].exit !== null, 'the spare to die');
    const handle = spare.launch();
    assert.equal(handle, launched[1].handle, 'a fresh process');
  } finally {
    spare.dispose();
    for (const l of launched) l.handle.kill();
  }
});

test('what the spare wrote to stderr while idle reaches the run that takes it', async () => {
  const mark = 'weir-spare-idle-stderr-line';
  process.env.WEIR_TASK_NODE_ARGS = `--import=data:text/javascript,console.error("${mark}")`;
  const { launcher, launched } = recording();
  const spare = spareLauncher(launcher, { refillDelayMs: 60_000 });
  try {
    const written: string[] = [];
    launched[0].handle.onStderr!((line) => written.push(line));
    await waitFor(() => written.includes(mark), 'the idle spare to write its line');
    const handle = spare.launch();
    assert.equal(launched.length, 1, 'the spare was taken');
    const heard: string[] = [];
    handle.onStderr!((line) => heard.push(line));
    await waitFor(() => heard.includes(mark), 'the line to reach the run');
  } finally {
    delete process.env.WEIR_TASK_NODE_ARGS;
    spare.dispose();
    for (const l of launched) l.handle.kill();
  }
});

test('the spare never outlives its host', { timeout: 60_000 }, async () => {
  const launcherModule = fileURLToPath(new URL('../../../../engine/runtime/job/launcher.ts', import.meta.url));
  const spareModule = fileURLToPath(new URL('../../../../engine/runtime/job/spare-launcher.ts', import.meta.url));
  const host = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { forkLauncher } from ${JSON.stringify(launcherModule)};
       import { spareLauncher } from ${JSON.stringify(spareModule)};
       const base = forkLauncher();
       spareLauncher({ launch() { const h = base.launch(); console.log(h.pid); return h; } });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const pid = Number(await new Promise<string>((res) => createInterface({ input: host.stdout }).once('line', res)));
    assert.ok(isAlive(pid), 'the spare runs');
    host.kill('SIGKILL');
    await waitForExit([pid], 20_000);
  } finally {
    host.kill('SIGKILL');
  }
});
