/**
 * The protocol's single definitions: what the schemas accept is what the types promise (the
 * Nexmark ports of sampleEdge), log events carry their kind, and the error-code and job-status
 * lists are the ones the rest of the engine reads.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseEvent, parseParams } from '../../../engine/host/common/protocol.ts';
import { HOST_ERROR_CODES } from '../../../engine/host/common/schemas.ts';
import { toHostError } from '../../../engine/host/common/errors.ts';
import { JOB_STATUSES, LOG_KINDS } from '../../../engine/contracts/run-events.ts';

describe('host protocol', () => {
  it('accepts every port sampleEdge is typed for, the Nexmark ports included', () => {
    for (const fromPort of ['out', 'late', 'bad', 'person', 'auction', 'bid'] as const) {
      const r = parseParams('sampleEdge', { runId: 'r1', from: 'nx', fromPort, on: true });
      assert.equal(r.ok, true, `${fromPort}: ${r.ok ? '' : r.message}`);
    }
    const wrong = parseParams('sampleEdge', { runId: 'r1', from: 'nx', fromPort: 'bids', on: true });
    assert.equal(wrong.ok, false);
    if (!wrong.ok) assert.match(wrong.message, /params\.fromPort/);
  });

  it('carries log events with their kind, and refuses one without', () => {
    for (const kind of LOG_KINDS) {
      const r = parseEvent({ type: 'log', runId: 'r1', level: 'warn', kind, message: 'x' });
      assert.equal(r.ok, true, kind);
      if (r.ok && r.value.type === 'log') assert.equal(r.value.kind, kind);
    }
    const bare = parseEvent({ type: 'log', runId: 'r1', level: 'error', message: 'stderr: boom' });
    assert.equal(bare.ok, false);
    if (!bare.ok) assert.match(bare.message, /event\.kind/);
  });

  it("checks a Flink run's snapshot on the page side: vertices typed, phase known", () => {
    const snap = {
      type: 'flink.run',
      flinkRunId: 'flink-1',
      jobName: 'j',
      target: 'gateway',
      flinkVersion: '2.x',
      phase: 'running',
      jobId: 'a'.repeat(32),
      state: 'RUNNING',
      vertices: [{ id: 'v', name: 'Source', parallelism: 2, status: 'RUNNING', recordsIn: 0, recordsOut: 5 }],
      checkpoints: 1,
      failures: [],
      webUi: 'http://127.0.0.1:8081/#/job/running/x',
    };
    assert.equal(parseEvent(snap).ok, true);
    const bad = parseEvent({ ...snap, vertices: [{ id: 'v', recordsOut: 'many' }] });
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.message, /^event\.vertices\.0\./);
    assert.equal(parseEvent({ ...snap, phase: 'paused' }).ok, false);
    assert.equal(
      parseParams('flinkRun', { job: {}, target: { kind: 'gateway', url: 'ftp://x' }, flinkVersion: '1.20' }).ok,
      false,
    );
  });

  it('knows every job status the runtime reports, and no other', () => {
    const status = (s: string) =>
      parseEvent({ type: 'job.status', runId: 'r1', status: s, restarts: 0, startedAt: 1 }).ok;
    for (const s of JOB_STATUSES) assert.equal(status(s), true, s);
    assert.equal(status('paused'), false);
  });

  it('rebuilds a HostError for every declared code, and for no other', () => {
    for (const code of HOST_ERROR_CODES) assert.equal(toHostError({ code, message: 'm' }).code, code);
    assert.equal(toHostError({ code: 'teapot', message: 'm' }).code, 'internal');
  });
});
