/**
 * Chaos with a PostgreSQL CDC source: a seeded writer inserts, updates and deletes rows in small
 * transactions while the job runs; the whole `weir run` is SIGKILLed three times (the first kills
 * usually land in the initial snapshot) and then its task process twice; at the end the changelog
 * committed by the file sink, materialized strictly (a doubled or lost change is a violation),
 * equals the table, and the slot was never confirmed past a completed checkpoint.
 *
 * The same source also feeds a tumbling window (COUNT and SUM per key and second of event time)
 * into a second file sink. The writer works in event-time phases (pg-change-driver.ts) and the
 * source's maxOutOfOrderness is one window, so no change is ever late whatever the kill timing; a
 * sentinel row far in the future closes every window at the end. The committed window results must
 * then be exactly the final table grouped by key and window: each once, none missing, none extra.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPgCluster, type PgCluster } from '../support/postgres-cluster.ts';
import { canonical, childPids, rng, sleep, startWeir, tempDir, waitFor, writeJob } from '../support/run-helpers.ts';
import { latestCheckpointId } from './chaos-runner.ts';
import { PgChangeDriver, CHAOS_START } from './pg-change-driver.ts';
import { committedChangelog, committedRows, materialize } from './changelog-materialize.ts';
import { parseLsn } from '../../engine/connectors/postgres/lsn.ts';

const INITIAL = 30_000;
const SLOT = 'weir_chaos_cdc_src';
const WINDOW_MS = 1000;
/** The writer's phase 0 window: the first whole window after the initial rows (at CHAOS_START + i*10). */
const PHASE_BASE = CHAOS_START + INITIAL * 10 + WINDOW_MS;
/** How many windows must get streamed retractions before the writer stops (see retractedWindows). */
const RETRACTED_WINDOWS = 30;
/** The sentinel's event time: far past every phase, so the watermark passes every phase's window. */
const SENTINEL_AT = CHAOS_START + 365 * 24 * 3600_000;

/** The `safe` LSN of the newest completed checkpoint on disk (what the slot may be confirmed to). */
function latestSafeLsn(root: string): bigint | null {
  const id = latestCheckpointId(root);
  if (id === 0) return null;
  for (const job of readdirSync(root)) {
    const meta = join(root, job, `chk-${id}`, '_metadata');
    if (!existsSync(meta)) continue;
    const m = JSON.parse(readFileSync(meta, 'utf8')) as {
      states: Array<{ operatorId: string; operator: { state: { position?: { safe: string } } } }>;
    };
    const safe = m.states.find((s) => s.operatorId === 'src')?.operator.state.position?.safe;
    return safe ? parseLsn(safe) : null;
  }
  return null;
}

async function slotConfirmed(pg: PgCluster): Promise<bigint | null> {
  const [r] = await pg.query<{ lsn: string | null }>(
    'SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = $1',
    [SLOT],
  );
  return r?.lsn ? parseLsn(r.lsn) : null;
}

/**
 * Guard: how many phase windows got both -U and -D rows through the stream, not only rows already
 * final in a snapshot read (the first kills land in the snapshot, and a restore there reads the
 * rest of the table as it is then). The committed changelog (what the window saw too) shows which.
 */
function retractedWindows(out: string): number {
  const updated = new Set<number>();
  const deleted = new Set<number>();
  for (const c of committedChangelog(out)) {
    const at = Date.parse(String(c.data.at)); // a TIMESTAMP: ISO-8601 UTC text
    if (at < PHASE_BASE || at >= SENTINEL_AT) continue;
    if (c.op === '-U') updated.add(at - (at % WINDOW_MS));
    if (c.op === '-D') deleted.add(at - (at % WINDOW_MS));
  }
  return [...updated].filter((w) => deleted.has(w)).length;
}

/** The windows' reference, computed from the final table alone: key|window start -> count and sum. */
async function referenceWindows(pg: PgCluster): Promise<Map<string, string>> {
  const rows = await pg.query<{ k: string; v: number; at: string }>(
    `SELECT k, v, (extract(epoch FROM at) * 1000)::bigint::text AS at FROM events`,
  );
  const acc = new Map<string, { n: number; total: number }>();
  for (const r of rows) {
    const at = Number(r.at);
    if (at >= SENTINEL_AT) continue; // the sentinel's window never closes
    const start = at - (at % WINDOW_MS);
    const key = `${r.k}|${new Date(start).toISOString()}`;
    const a = acc.get(key) ?? { n: 0, total: 0 };
    a.n++;
    a.total += r.v;
    acc.set(key, a);
  }
  return new Map([...acc].map(([k, a]) => [k, `${a.n}/${a.total}`]));
}

/** The committed window results (key|window start -> count/sum) and the keys committed twice. */
function committedWindows(dir: string): { results: Map<string, string>; doubled: string[] } {
  const results = new Map<string, string>();
  const doubled: string[] = [];
  for (const r of committedRows(dir)) {
    const key = `${String(r.k)}|${new Date(r.window_start as string | number).toISOString()}`;
    if (results.has(key)) doubled.push(key);
    results.set(key, `${Number(r.n)}/${Number(r.total)}`);
  }
  return { results, doubled };
}

async function referenceTable(pg: PgCluster): Promise<Map<unknown, string>> {
  const rows = await pg.query<{ id: number; k: string; v: number; at: string }>(
    `SELECT id, k, v, (extract(epoch FROM at) * 1000)::bigint::text AS at FROM events`,
  );
  return new Map(
    rows.map((r) => [r.id, canonical({ id: r.id, k: r.k, v: r.v, at: new Date(Number(r.at)).toISOString() })]),
  );
}

test(
  'postgres cdc: changes while the job runs and across SIGKILLs reach the sink exactly once, and its windows equal the table grouped by window',
  { timeout: 420_000 },
  async () => {
    const pg = await startPgCluster();
    const { dir, cleanup } = tempDir('chaos-pg-cdc');
    // CHAOS_SEED varies the kill moments and the writer's changes (the default is the committed run).
    const seed = Number(process.env.CHAOS_SEED ?? 15);
    const random = rng(seed);
    let driver: PgChangeDriver | null = null;
    try {
      await pg.query(
        'CREATE TABLE events (id int PRIMARY KEY, k text NOT NULL, v int NOT NULL, at timestamptz NOT NULL)',
      );
      await pg.query('ALTER TABLE events REPLICA IDENTITY FULL');
      await pg.query(
        `INSERT INTO events SELECT i, 'k' || (i % 5), i % 1000, to_timestamp((${CHAOS_START} + i * 10) / 1000.0)
         FROM generate_series(1, ${INITIAL}) AS i`,
      );
      const job = writeJob(dir, {
        format: 'weir.job/v1',
        name: 'chaos-cdc',
        settings: {
          parallelism: 1,
          stateBackend: 'fs',
          checkpointing: { interval: '100ms', dir: 'checkpoints' },
          restart: { attempts: 10, delay: '100ms' },
        },
        nodes: [
          {
            id: 'src',
            type: 'source.postgres',
            config: {
              url: pg.url,
              table: 'events',
              mode: 'cdc',
              // One window of out-of-orderness: window p closes only once phase p+2 has begun (a
              // margin: phase p+1 alone already comes after every change of phase p).
              eventTime: { field: 'at', maxOutOfOrderness: `${WINDOW_MS}ms` },
            },
          },
          { id: 'keep', type: 'filter', config: { where: 'v >= 0' } },
          { id: 'out', type: 'sink.file', config: { path: 'out', format: 'changelog-json' } },
          {
            id: 'per_second',
            type: 'window',
            config: {
              keyBy: 'k',
              window: { kind: 'tumbling', size: `${WINDOW_MS}ms` },
              aggregates: 'COUNT(*) AS n, SUM(v) AS total',
            },
          },
          { id: 'win_out', type: 'sink.file', config: { path: 'win', format: 'jsonl' } },
        ],
        edges: [
          { from: 'src', to: 'keep' },
          { from: 'keep', to: 'out' },
          { from: 'src', to: 'per_second' },
          { from: 'per_second', to: 'win_out' },
        ],
      });
      const root = join(dir, 'checkpoints');
      driver = new PgChangeDriver(
        pg.url,
        seed + 7,
        Array.from({ length: INITIAL }, (_, i) => i + 1),
        INITIAL + 1,
        { base: PHASE_BASE, windowMs: WINDOW_MS, transactionsPerPhase: 30 },
      );
      driver.start();
      let confirmChecks = 0;
      const checkConfirm = async () => {
        const confirmed = await slotConfirmed(pg);
        const safe = latestSafeLsn(root);
        if (confirmed === null || safe === null) return;
        assert.ok(confirmed <= safe, `slot confirmed ${confirmed} past the newest completed checkpoint's ${safe}`);
        confirmChecks++;
      };

      // The whole run, SIGKILLed a random moment after a checkpoint completed.
      const outputs: string[] = []; // every run's progress lines and summary (they report late records)
      let wholeKills = 0;
      for (let i = 0; i < 3; i++) {
        const before = latestCheckpointId(root);
        const run = startWeir(['run', job, ...(before > 0 ? ['--resume'] : [])], dir);
        await waitFor(() => latestCheckpointId(root) > before, 'a new completed checkpoint', 90_000);
        await sleep(random() * 300);
        run.child.kill('SIGKILL');
        const killed = await run.result;
        outputs.push(killed.stdout + killed.stderr);
        wholeKills++;
        await checkConfirm();
      }

      // One long run whose task process is SIGKILLed twice; the job master restarts it.
      const run = startWeir(['run', job, '--resume'], dir);
      let taskKills = 0;
      for (let i = 0; i < 2; i++) {
        const before = latestCheckpointId(root);
        await waitFor(() => latestCheckpointId(root) > before + 2, 'checkpoints after a restart', 90_000);
        await sleep(random() * 300);
        const kids = childPids(run.child.pid!);
        assert.ok(kids.length > 0, 'the run has a task process');
        for (const k of kids) process.kill(k, 'SIGKILL');
        taskKills++;
        await checkConfirm();
      }
      // The writer goes on until enough windows got retractions through the stream (most phases
      // written during the initial snapshot reach the window as final rows only). Polled every
      // 300 ms: each check reads the whole committed changelog.
      let nextCheck = 0;
      await waitFor(
        () => {
          if (Date.now() < nextCheck) return false;
          nextCheck = Date.now() + 300;
          return retractedWindows(join(dir, 'out')) >= RETRACTED_WINDOWS;
        },
        `${RETRACTED_WINDOWS} windows with streamed -U and -D rows`,
        120_000,
      );
      await driver.stop();
      const changes = driver.changes;
      const phaseChanges = driver.phaseChanges;
      // The sentinel: its event time moves the watermark past every phase's window.
      await pg.query(`INSERT INTO events VALUES ($1, 'sentinel', 0, $2)`, [driver.next, new Date(SENTINEL_AT)]);
      driver = null;
      const expected = await referenceTable(pg);
      const expectedWindows = await referenceWindows(pg);

      // Wait for the committed changelog to reach the table's final state, then stop the job.
      let last = { size: 0, violations: [] as string[] };
      await waitFor(
        () => {
          const m = materialize(committedChangelog(join(dir, 'out')), 'id');
          last = { size: m.table.size, violations: m.violations };
          return (
            m.violations.length > 0 ||
            (m.table.size === expected.size && [...expected].every(([k, v]) => m.table.get(k) === v))
          );
        },
        'the committed changelog to reach the final table',
        120_000,
      );
      // Windows fire in event-time order and the sink commits in stream order, so once the last
      // phase's windows (closed by the sentinel) are committed every earlier one is too: compare
      // then, and a wrong or missing result elsewhere fails below with the difference, not a timeout.
      const lastStart = [...expectedWindows.keys()]
        .map((k) => k.slice(k.indexOf('|') + 1))
        .sort()
        .pop()!;
      const lastWindows = [...expectedWindows.keys()].filter((k) => k.endsWith(`|${lastStart}`));
      let win = { results: new Map<string, string>(), doubled: [] as string[] };
      await waitFor(
        () => {
          win = committedWindows(join(dir, 'win'));
          return win.doubled.length > 0 || lastWindows.every((k) => win.results.has(k));
        },
        'the committed results of the last phase window',
        120_000,
      );
      await checkConfirm();
      run.child.kill('SIGINT');
      const r = await run.result;
      assert.equal(r.code, 0, r.stderr);
      outputs.push(r.stdout + r.stderr);

      assert.deepEqual(last.violations.slice(0, 5), [], 'no doubled or lost change');
      assert.equal(last.size, expected.size);

      win = committedWindows(join(dir, 'win'));
      assert.deepEqual(win.doubled.slice(0, 5), [], 'no window result committed twice');
      const wrong = [...new Set([...expectedWindows.keys(), ...win.results.keys()])]
        .filter((k) => expectedWindows.get(k) !== win.results.get(k))
        .map((k) => `${k}: expected ${expectedWindows.get(k) ?? 'none'}, committed ${win.results.get(k) ?? 'none'}`);
      assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} window results differ from the table's`);
      // The window's late counter (the progress line's "late N", the summary's "N late") stayed 0.
      const late = outputs.filter((o) => /\| late \d|\d late/.test(o));
      assert.deepEqual(
        late.map((o) => o.slice(-400)),
        [],
        'no change reached the window late',
      );
      assert.equal(wholeKills, 3);
      assert.equal(taskKills, 2);
      assert.ok(confirmChecks >= 3, `the slot's confirmed LSN was compared ${confirmChecks} times`);
      // Guard: the writer really inserted, updated and deleted while the job ran.
      assert.ok(changes.insert > 50 && changes.update > 50 && changes.delete > 20, JSON.stringify(changes));
      const busy = retractedWindows(join(dir, 'out'));
      assert.ok(busy >= RETRACTED_WINDOWS, `${busy} windows got both -U and -D rows through the stream`);
      assert.ok(
        [...phaseChanges.values()].filter((p) => p.update > 0 && p.delete > 0).length >= 15,
        'the writer updated and deleted rows in many phases',
      );
      assert.ok(expectedWindows.size > INITIAL / 100 + 5 * 20, `${expectedWindows.size} windows`);
    } finally {
      await driver?.stop().catch(() => undefined);
      await pg.stop();
      cleanup();
    }
  },
);
