/**
 * `weir serve` as a real process: a client runs an unbounded job through the socket, then
 * SIGTERM stops the run, its task process and the server, exit code 0, nothing left behind.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import WebSocket from 'ws';
import { connectHost, type WebSocketConstructor } from '../../../engine/host/browser/ws-client.ts';
import type { HostEvent } from '../../../engine/host/common/api.ts';
import { startServe } from '../../e2e/support/serve.ts';

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

describe('weir serve process', { skip: process.platform !== 'linux' ? 'reads /proc' : undefined }, () => {
  it('stops runs and task processes on SIGTERM and exits 0', async () => {
    const serve = await startServe();
    let closed = false;
    try {
      const host = await connectHost(`ws://127.0.0.1:${serve.port}/ws`, serve.token, {
        WebSocket: WebSocket as unknown as WebSocketConstructor,
      });
      const events: HostEvent[] = [];
      host.onEvent((e) => events.push(e));
      const job = {
        format: 'weir.job/v1',
        name: 'forever',
        settings: { stateBackend: 'memory' },
        nodes: [
          { id: 'gen', type: 'source.generator', config: { rate: 200, keys: 3 } },
          { id: 'peek', type: 'sink.preview', config: {} },
        ],
        edges: [{ from: 'gen', to: 'peek' }],
      };
      const info = await host.run({ job: job as never });
      const start = Date.now();
      while (!events.some((e) => e.type === 'job.status' && e.runId === info.runId && e.status === 'running')) {
        assert.ok(Date.now() - start < 30_000, 'the run starts');
        await new Promise((r) => setTimeout(r, 20));
      }
      const tasks = childrenOf(serve.child.pid!);
      assert.ok(tasks.length >= 1, 'a task process runs under weir serve');
      host.close();
      const code = await serve.close();
      closed = true;
      assert.equal(code, 0);
      for (const pid of tasks)
        assert.equal(
          existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '),
          false,
          `task process ${pid} is gone`,
        );
    } finally {
      if (!closed) await serve.close();
    }
  });
});
