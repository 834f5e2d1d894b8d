/**
 * `source.postgres` in validation: a cdc source is a changelog producer (what Flink's postgres-cdc
 * is): a tumbling or sliding window takes it with retractions (Flink 1.19+), a session window refuses
 * it; a snapshot source is append-only and feeds any window; the config is checked where it is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';
import { baseJob, lines } from './job-builders.ts';

function withPostgres(mode: 'snapshot' | 'cdc', extra: Record<string, unknown> = {}): JobDocument {
  const doc = baseJob();
  doc.nodes[0] = {
    id: 'orders',
    type: 'source.postgres',
    config: {
      url: 'postgresql://weir@localhost:5432/shop',
      table: 'public.orders',
      mode,
      columns: { user: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
      eventTime: { field: 'ts', maxOutOfOrderness: '5s' },
      ...extra,
    },
  };
  return doc;
}

test('a snapshot postgres source feeds a window (append-only)', () => {
  const r = validateJob(withPostgres('snapshot'));
  assert.equal(r.ok, true, r.ok ? '' : lines(r.problems).join('\n'));
});

test('a cdc postgres source is a changelog: a tumbling window takes it, a session window refuses it, a changelog-json sink takes it', () => {
  const tumbling = validateJob(withPostgres('cdc'));
  assert.equal(tumbling.ok, true, tumbling.ok ? '' : lines(tumbling.problems).join('\n'));
  const session = withPostgres('cdc');
  const win = session.nodes.find((n) => n.id === 'per_user')!;
  (win.config as { window: unknown }).window = { kind: 'session', gap: '10s' };
  const r = validateJob(session);
  assert.equal(r.ok, false);
  assert.ok(
    lines(r.problems).some((l) => /per_user/.test(l) && /changelog/.test(l) && /session/.test(l)),
    lines(r.problems).join('\n'),
  );
  const direct = withPostgres('cdc');
  direct.nodes = [
    direct.nodes[0],
    { id: 'out', type: 'sink.file', config: { path: 'out/x', format: 'changelog-json' } },
  ];
  direct.edges = [{ from: 'orders', to: 'out' }];
  const ok = validateJob(direct);
  assert.equal(ok.ok, true, ok.ok ? '' : lines(ok.problems).join('\n'));
});

test('postgres source config errors name the field', () => {
  const r = validateJob(withPostgres('snapshot', { slotName: 'Bad-Name' }));
  assert.equal(r.ok, false);
  assert.ok(
    lines(r.problems).some((l) => l.startsWith('nodes[0].config.slotName: a slot name is 1-63 characters')),
    lines(r.problems).join('\n'),
  );
  const m = validateJob(withPostgres('snapshot', { mode: 'stream' }));
  assert.equal(m.ok, false);
  assert.ok(
    lines(m.problems).some((l) => l.startsWith('nodes[0].config.mode')),
    lines(m.problems).join('\n'),
  );
});

test('a URL with a password, a bad table name or an undeclared key column is refused before any connection', () => {
  const r = validateJob(
    withPostgres('cdc', { url: 'postgresql://weir:secret@db/shop', table: 'a.b.c', primaryKey: 'id' }),
  );
  assert.equal(r.ok, false);
  const got = lines(r.problems);
  for (const want of [
    /^nodes\[0\]\.config\.url: the URL carries a password/,
    /^nodes\[0\]\.config\.table: expected 'schema\.table' or 'table', got 'a\.b\.c'/,
    /^nodes\[0\]\.config\.primaryKey: 'id' is not a declared column/,
  ])
    assert.ok(
      got.some((l) => want.test(l)),
      `${want}\n${got.join('\n')}`,
    );
});
