/**
 * The host's validate and run check `sink.postgres` columns against the real table (through the
 * memory transport), and read a password variable only when the user allowed it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPgCluster, type PgCluster } from '../../support/postgres-cluster.ts';
import { HostError } from '../../../engine/host/common/errors.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { startMemoryHost, type MemoryHost } from './memory-host.ts';

let cluster: PgCluster;
let h: MemoryHost;
before(async () => {
  cluster = await startPgCluster();
  await cluster.query('CREATE TABLE public.typed (seq bigint, key integer, value bigint, ts bigint)');
  h = startMemoryHost('host-sink-tables');
});
after(async () => {
  await h?.close();
  await cluster?.stop();
});

function job(sink: Record<string, unknown>): JobDocument {
  return {
    format: 'weir.job/v1',
    name: 'host-sink',
    nodes: [
      { id: 'gen', type: 'source.generator', config: { count: 10 } },
      { id: 'pg', type: 'sink.postgres', config: { url: cluster.url, table: 'public.typed', mode: 'append', ...sink } },
    ],
    edges: [{ from: 'gen', to: 'pg' }],
  };
}

const KEY_ERROR =
  "nodes[1].config.table: column 'key' is integer (INT) in PostgreSQL but the input gives STRING, which Flink " +
  "does not cast to INT implicitly (change the column's type, or CAST the value before the sink)";

test('validate: a column type Flink refuses is an error with its path', async () => {
  const r = await h.client.validate({ job: job({}) });
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.problems.map((p) => `${p.path}: ${p.message}`),
    [KEY_ERROR],
  );
});

test('run: refused as invalid_job before anything starts', async () => {
  await assert.rejects(h.client.run({ job: job({}) }), (err: unknown) => {
    assert.ok(err instanceof HostError);
    assert.equal(err.code, 'invalid_job');
    assert.deepEqual(
      err.problems?.map((p) => `${p.path}: ${p.message}`),
      [KEY_ERROR],
    );
    return true;
  });
});

test('validate: a password variable the user did not allow is not read, and the table is not checked', async () => {
  process.env.HOST_SINK_TABLES_SECRET = 'x';
  try {
    const r = await h.client.validate({ job: job({ passwordEnv: 'HOST_SINK_TABLES_SECRET' }) });
    assert.equal(r.ok, true, JSON.stringify(r.problems));
    const w = r.problems.find((p) => p.path === 'nodes[1].config.passwordEnv');
    assert.equal(w?.severity, 'warning');
    assert.match(
      w?.message ?? '',
      /^table not checked: the environment variable HOST_SINK_TABLES_SECRET may not be read here/,
    );
  } finally {
    delete process.env.HOST_SINK_TABLES_SECRET;
  }
});
