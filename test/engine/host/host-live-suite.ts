/**
 * Live-panel data over every transport (memory-transport.test.ts, ws-transport.test.ts,
 * test/electron/ipc-transport.test.ts): edge samples switched on by `sampleEdge`, the sources' idle
 * flag in metrics, and a failed checkpoint's refused snapshot size. On every transport each event
 * passes the zod schemas on the page side, so these also prove the additive fields are not
 * stripped on the way.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineHost, HostEvent, OperatorMetrics } from '../../../engine/host/common/api.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import { createLocalHost, type LocalHost } from '../../../engine/host/node/local-host.ts';
import { EXAMPLES_DIR, waitFor, type Connect, type Connected } from './host-api-suite.ts';

async function rejectsWith(p: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof HostError, `expected a HostError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    assert.match(err.message, message);
    return true;
  });
}

export function defineHostLiveSuite(transport: string, connect: Connect): void {
  describe(`live data over ${transport}`, () => {
    let workspace: string;
    let host: LocalHost;
    let conn: Connected;
    let api: EngineHost;

    before(async () => {
      workspace = realpathSync(mkdtempSync(join(tmpdir(), 'weir-host-live-')));
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
      await host.dispose();
      await fs.rm(workspace, { recursive: true, force: true });
    });

    it('samples any edge on request, flags an idle source, and refuses unknown names', async () => {
      await fs.mkdir(join(workspace, 'quiet'));
      const job = {
        format: 'weir.job/v1',
        name: 'sampled',
        settings: { stateBackend: 'memory', checkpointing: { interval: '300ms' } },
        nodes: [
          { id: 'gen', type: 'source.generator', config: { rate: 2000, keys: 5, eventTime: { field: 'ts' } } },
          {
            id: 'quiet',
            type: 'source.file',
            config: { path: 'quiet', format: 'jsonl', follow: true, eventTime: { field: 'ts', idleTimeout: '200ms' } },
          },
          { id: 'u', type: 'union', config: {} },
          { id: 'odd', type: 'filter', config: { where: 'seq % 2 = 1' } },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
        ],
        edges: [
          { from: 'gen', to: 'u' },
          { from: 'quiet', to: 'u' },
          { from: 'u', to: 'odd' },
          { from: 'odd', to: 'out' },
        ],
      };
      const events: HostEvent[] = [];
      const off = api.onEvent((e) => events.push(e));
      const info = await api.run({ job: job as never });
      assert.equal(info.memoryStateLimit, 5 * 1024 * 1024, 'the limit in effect is part of the run');
      try {
        await waitFor(
          () => events.some((e) => e.type === 'job.status' && e.runId === info.runId && e.status === 'running'),
          30_000,
          'running',
        );
        const sampled = await api.sampleEdge({ runId: info.runId, from: 'odd', to: 'out', on: true });
        assert.deepEqual(sampled, { target: 'edge:odd.out' });
        await waitFor(
          () => events.some((e) => e.type === 'preview' && e.target.startsWith('edge:odd.out#')),
          20_000,
          'edge samples',
        );
        const records = events.flatMap((e) =>
          e.type === 'preview' && e.target.startsWith('edge:odd.out#') ? e.records : [],
        ) as Array<{ seq: number }>;
        assert.ok(records.length > 0 && records.every((r) => r.seq % 2 === 1), JSON.stringify(records.slice(0, 3)));

        // Sources say whether they are idle: the silent tailing source is, the generator is not.
        const lastOf = (id: string) => {
          let m: OperatorMetrics | undefined;
          for (const e of events)
            if (e.type === 'metrics' && e.runId === info.runId) m = e.operators.find((o) => o.nodeId === id) ?? m;
          return m;
        };
        await waitFor(() => lastOf('quiet')?.idle === true, 20_000, 'the quiet source to be idle');
        assert.equal(lastOf('gen')?.idle, false);
        assert.equal(lastOf('odd')?.idle, undefined, 'only sources carry the flag');

        await rejectsWith(
          api.sampleEdge({ runId: info.runId, from: 'ghost', on: true }),
          'invalid_request',
          /from: no node 'ghost'/,
        );
        await rejectsWith(
          api.sampleEdge({ runId: info.runId, from: 'gen', to: 'out', on: true }),
          'invalid_request',
          /to: .*no edge gen -> out/,
        );
        await rejectsWith(
          api.sampleEdge({ runId: info.runId, from: 'out', on: true }),
          'invalid_request',
          /from: node 'out' \(sink.file\) has no outputs/,
        );
        await rejectsWith(
          api.sampleEdge({ runId: info.runId, from: 'gen', fromPort: 'side' as never, on: true }),
          'invalid_request',
          /params\.fromPort/,
        );
        await rejectsWith(api.sampleEdge({ runId: 'nope', from: 'gen', on: true }), 'not_found', /nope/);

        // Metrics reports of this run are the clock: one in flight may still arrive, then none.
        const metricsSeen = () => events.filter((e) => e.type === 'metrics' && e.runId === info.runId).length;
        const ticks = async (k: number) => {
          const target = metricsSeen() + k;
          await waitFor(() => metricsSeen() >= target, 20_000, `${k} metrics reports`);
        };
        await api.sampleEdge({ runId: info.runId, from: 'odd', on: false });
        await ticks(2);
        const n = events.filter((e) => e.type === 'preview').length;
        await ticks(3);
        assert.equal(events.filter((e) => e.type === 'preview').length, n, 'no samples once off');
      } finally {
        await api.stop({ runId: info.runId });
        off();
      }
    });

    it('a checkpoint refused by memoryStateLimit arrives failed, with its size and the limit, before the job fails', async () => {
      const job = {
        format: 'weir.job/v1',
        name: 'too-big',
        settings: {
          stateBackend: 'memory',
          memoryStateLimit: '16kb',
          checkpointing: { interval: '300ms' },
          restart: { attempts: 0 },
        },
        nodes: [
          { id: 'gen', type: 'source.generator', config: { keys: 5000, rate: 50_000, eventTime: { field: 'ts' } } },
          {
            id: 'win',
            type: 'window',
            config: { keyBy: 'key', window: { kind: 'tumbling', size: '10s' }, aggregates: 'COUNT(*) AS n' },
          },
          { id: 'out', type: 'sink.file', config: { path: 'big-out', format: 'jsonl' } },
        ],
        edges: [
          { from: 'gen', to: 'win' },
          { from: 'win', to: 'out' },
        ],
      };
      const events: HostEvent[] = [];
      const off = api.onEvent((e) => events.push(e));
      const info = await api.run({ job: job as never });
      assert.equal(info.memoryStateLimit, 16 * 1024);
      await waitFor(
        () => events.some((e) => e.type === 'job.status' && e.runId === info.runId && e.status === 'failed'),
        30_000,
        'the job to fail',
      );
      off();
      const mine = events.filter((e) => 'runId' in e && e.runId === info.runId);
      const end = mine.findIndex((e) => e.type === 'job.status' && e.status === 'failed');
      const failed = mine.slice(0, end).filter((e) => e.type === 'checkpoint' && e.stats.status === 'failed');
      assert.equal(failed.length, 1, 'the failed checkpoint arrives before the final status');
      const stats = (failed[0] as Extract<HostEvent, { type: 'checkpoint' }>).stats;
      assert.match(stats.failureReason ?? '', /memoryStateLimit/);
      const refused = stats.subtasks.find((s) => s.limitBytes !== undefined);
      assert.ok(refused, JSON.stringify(stats.subtasks));
      assert.equal(refused.limitBytes, 16 * 1024);
      assert.ok(refused.fullBytes > refused.limitBytes);
    });
  });
}
