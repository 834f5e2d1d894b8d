/**
 * The Electron bundles as `npm run build` makes them: the preload needs nothing but 'electron',
 * the main bundle parses, and the task-process bundle really runs a job when the runtime forks it
 * (the same file a utilityProcess starts in the packaged app).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TaskLauncher, TaskProcessHandle } from '../../engine/runtime/job/api.ts';
import { startJob } from '../../engine/runtime/job/job-runner.ts';
import { validateJob } from '../../engine/graph/validate.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'dist', 'electron');

function bundleLauncher(entry: string, execArgv: string[] = []): TaskLauncher {
  return {
    launch(): TaskProcessHandle {
      const child = fork(entry, [], {
        execArgv,
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      return {
        send: (m) => {
          if (child.connected) child.send(m as object);
        },
        onMessage: (l) => {
          child.on('message', l);
        },
        onExit: (l) => {
          child.once('exit', (code, signal) => l({ code, signal }));
        },
        kill: (signal = 'SIGKILL') => {
          child.kill(signal);
        },
        get pid() {
          return child.pid;
        },
      };
    },
  };
}

describe('electron bundles', () => {
  let workspace: string;
  before(() => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--electron'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    workspace = mkdtempSync(join(tmpdir(), 'weir-bundle-'));
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('builds main, preload and task bundles', () => {
    const files = readdirSync(OUT);
    for (const f of ['main.cjs', 'preload.cjs', 'task.cjs']) assert.ok(files.includes(f), f);
    assert.equal(spawnSync(process.execPath, ['--check', join(OUT, 'main.cjs')]).status, 0);
  });

  it('keeps the sandboxed preload to the host API and electron alone', () => {
    const text = readFileSync(join(OUT, 'preload.cjs'), 'utf8');
    const requires = [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(requires)], ['electron']);
    assert.equal([...text.matchAll(/exposeInMainWorld\(/g)].length, 1);
    assert.doesNotMatch(text, /exposeInMainWorld\("weir",\s*\{?\s*ipcRenderer/);
  });

  const PARENT_PORT = ['-r', join(import.meta.dirname, 'fixtures', 'utility-parent-port.cjs')];
  const cases = [
    ['orders-per-user', 'fs', [], 'process.send'],
    ['clicks-sessions', 'rocksdb', [], 'process.send'],
    // As in a utilityProcess: only process.parentPort carries messages; task-entry bridges it.
    ['orders-per-user', 'fs', PARENT_PORT, 'parentPort'],
  ] as const;
  for (const [example, backend, execArgv, channel] of cases) {
    it(
      `runs ${example} (${backend} backend) in the bundled task process over ${channel}`,
      { timeout: 90_000 },
      async () => {
        const dir = join(workspace, `${example}-${channel}`);
        cpSync(join(ROOT, 'examples', example), dir, { recursive: true });
        const doc = JSON.parse(readFileSync(join(dir, 'job.weir.json'), 'utf8'));
        const v = validateJob(doc, { baseDir: dir });
        assert.ok(v.ok, JSON.stringify(v.problems));
        assert.equal(v.job.settings.stateBackend, backend);
        const handle = await startJob({
          job: { ...v.job, baseDir: dir },
          launcher: bundleLauncher(join(OUT, 'task.cjs'), [...execArgv]),
        });
        const result = await handle.done;
        assert.equal(result.status, 'finished', result.cause);
        const sinks = v.job.nodes.filter((n) => n.type === 'sink.file');
        for (const n of sinks) assert.ok(readdirSync(join(dir, (n.config as { path: string }).path)).length > 0, n.id);
      },
    );
  }
});
