/**
 * Chaos jobs for the relational operators: aggregate, an aggregate over an aggregate's changelog
 * (retractions), topn (changelog-json sinks) and an interval
 * join (append-only), each on generated records whose values are pure functions of (seed, seq), so
 * the expected final table is computed here by plain loops. A changelog's committed lines are
 * folded with signed counts (+I/+U add one, -U/-D take one away): the fold does not depend on the
 * order of the committed files, and a change written twice or lost shows up as a wrong count.
 */
import assert from 'node:assert/strict';
import type { StateBackendKind } from '../../engine/graph/types.ts';
import { generatorParams, generatorRecord } from '../../engine/connectors/generator-source.ts';
import { canonical, readCommitted } from '../support/run-helpers.ts';

export type RelationalKind = 'aggregate' | 'aggregate.changelog' | 'topn' | 'join.interval' | 'join' | 'join.window';

const COUNT = 40_000;
const GEN = { seed: 7, count: COUNT, keys: 9, outOfOrderness: 100, step: 10 };
const GEN_R = { seed: 8, count: COUNT, keys: 9, outOfOrderness: 100, step: 10 };
const JOIN_COUNT = 30_000;
const JOIN_GEN = { seed: 9, count: JOIN_COUNT, keys: 100_000, outOfOrderness: 100, step: 10 };
const JOIN_GEN_R = { seed: 10, count: JOIN_COUNT, keys: 100_000, outOfOrderness: 100, step: 10 };

/** Records per generator of `kind`'s job (for the chaos loop's progress). */
export function relationalRecords(kind: RelationalKind): number {
  return kind === 'join' ? JOIN_COUNT : COUNT;
}

function settings(backend: StateBackendKind) {
  return {
    parallelism: 2,
    stateBackend: backend,
    checkpointing: { interval: '150ms', dir: 'checkpoints', retained: 2 },
    restart: { attempts: 3, delay: '50ms' },
  };
}

export function relationalChaosJob(kind: RelationalKind, backend: StateBackendKind, rate: number) {
  const gen = { id: 'gen', type: 'source.generator', config: { ...GEN, rate } };
  const sink = (format: string) => ({ id: 'out', type: 'sink.file', config: { path: 'out', format } });
  if (kind === 'aggregate') {
    return {
      format: 'weir.job/v1',
      name: `chaos-aggregate-${backend}`,
      settings: settings(backend),
      nodes: [
        gen,
        {
          id: 'agg',
          type: 'aggregate',
          config: {
            keyBy: 'key',
            aggregates:
              'COUNT(*) AS n, SUM(value) AS total, COUNT(DISTINCT value) AS d, COUNT(*) FILTER (WHERE value < 100) AS small',
          },
        },
        sink('changelog-json'),
      ],
      edges: [
        { from: 'gen', to: 'agg' },
        { from: 'agg', to: 'out' },
      ],
    };
  }
  if (kind === 'aggregate.changelog') {
    // MAX per (key, part), then MIN/AVG/MAX/COUNT per key over that updating result: the second
    // aggregate retracts every superseded maximum.
    return {
      format: 'weir.job/v1',
      name: `chaos-aggregate-changelog-${backend}`,
      settings: settings(backend),
      nodes: [
        gen,
        { id: 'parts', type: 'map', config: { select: 'key, value, MOD(seq, 5) AS part' } },
        { id: 'hi', type: 'aggregate', config: { keyBy: 'key, part', aggregates: 'MAX(value) AS hi' } },
        {
          id: 'agg',
          type: 'aggregate',
          config: {
            keyBy: 'key',
            aggregates: 'COUNT(*) AS parts, MIN(hi) AS low, AVG(hi) AS mean, MAX(hi) AS top, SUM(hi) AS total',
          },
        },
        sink('changelog-json'),
      ],
      edges: [
        { from: 'gen', to: 'parts' },
        { from: 'parts', to: 'hi' },
        { from: 'hi', to: 'agg' },
        { from: 'agg', to: 'out' },
      ],
    };
  }
  if (kind === 'topn') {
    return {
      format: 'weir.job/v1',
      name: `chaos-topn-${backend}`,
      settings: settings(backend),
      nodes: [
        gen,
        { id: 'top', type: 'topn', config: { partitionBy: 'key', orderBy: 'value DESC, seq ASC', limit: 3 } },
        sink('changelog-json'),
      ],
      edges: [
        { from: 'gen', to: 'top' },
        { from: 'top', to: 'out' },
      ],
    };
  }
  if (kind === 'join') {
    // A full outer join over sparse keys: many rows are padded first and retracted on a match.
    return {
      format: 'weir.job/v1',
      name: `chaos-outer-join-${backend}`,
      settings: settings(backend),
      nodes: [
        { id: 'gen', type: 'source.generator', config: { ...JOIN_GEN, rate } },
        { id: 'right', type: 'source.generator', config: { ...JOIN_GEN_R, rate } },
        {
          id: 'j',
          type: 'join',
          config: {
            kind: 'full',
            leftKey: 'key',
            rightKey: 'key',
            select: 'L.key AS lk, R.key AS rk, L.seq AS lseq, R.seq AS rseq',
          },
        },
        sink('changelog-json'),
      ],
      edges: [
        { from: 'gen', to: 'j', toPort: 'left' },
        { from: 'right', to: 'j', toPort: 'right' },
        { from: 'j', to: 'out' },
      ],
    };
  }
  if (kind === 'join.window') {
    return {
      format: 'weir.job/v1',
      name: `chaos-window-join-${backend}`,
      settings: settings(backend),
      nodes: [
        gen,
        { id: 'right', type: 'source.generator', config: { ...GEN_R, rate } },
        {
          id: 'j',
          type: 'join.window',
          config: {
            leftKey: 'key',
            rightKey: 'key',
            window: { kind: 'tumbling', size: '50ms' },
            select: 'window_start, L.key, L.seq AS lseq, R.seq AS rseq',
          },
        },
        sink('jsonl'),
      ],
      edges: [
        { from: 'gen', to: 'j', toPort: 'left' },
        { from: 'right', to: 'j', toPort: 'right' },
        { from: 'j', to: 'out' },
      ],
    };
  }
  return {
    format: 'weir.job/v1',
    name: `chaos-join-${backend}`,
    settings: settings(backend),
    nodes: [
      gen,
      { id: 'right', type: 'source.generator', config: { ...GEN_R, rate } },
      {
        id: 'j',
        type: 'join.interval',
        config: {
          leftKey: 'key',
          rightKey: 'key',
          lower: '-20ms',
          upper: '15ms',
          select: 'L.key, L.seq AS lseq, R.seq AS rseq, L.value + R.value AS v',
        },
      },
      sink('jsonl'),
    ],
    edges: [
      { from: 'gen', to: 'j', toPort: 'left' },
      { from: 'right', to: 'j', toPort: 'right' },
      { from: 'j', to: 'out' },
    ],
  };
}

/** The expected final table, canonical rows. */
export function relationalReference(kind: RelationalKind): string[] {
  const p = generatorParams(GEN);
  const recs = Array.from({ length: COUNT }, (_, seq) => generatorRecord(p, seq));
  if (kind === 'aggregate') {
    const by = new Map<string, number[]>();
    for (const r of recs) {
      const l = by.get(r.key) ?? [];
      l.push(r.value);
      by.set(r.key, l);
    }
    return [...by]
      .map(([key, vs]) =>
        canonical({
          key,
          n: vs.length,
          total: vs.reduce((a, b) => a + b, 0),
          d: new Set(vs).size,
          small: vs.filter((v) => v < 100).length,
        }),
      )
      .sort();
  }
  if (kind === 'aggregate.changelog') {
    const hi = new Map<string, number[]>();
    for (const r of recs) {
      const parts = hi.get(r.key) ?? [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity];
      parts[r.seq % 5] = Math.max(parts[r.seq % 5], r.value);
      hi.set(r.key, parts);
    }
    return [...hi]
      .map(([key, all]) => {
        const vs = all.filter((v) => v > -Infinity);
        const total = vs.reduce((a, b) => a + b, 0);
        const mean = Math.trunc(total / vs.length);
        return canonical({ key, parts: vs.length, low: Math.min(...vs), mean, top: Math.max(...vs), total });
      })
      .sort();
  }
  if (kind === 'topn') {
    const by = new Map<string, typeof recs>();
    for (const r of recs) {
      const l = by.get(r.key) ?? [];
      l.push(r);
      by.set(r.key, l);
    }
    return [...by.values()]
      .flatMap((l) =>
        [...l]
          .sort((a, b) => b.value - a.value || a.seq - b.seq)
          .slice(0, 3)
          .map((r, i) => canonical({ ...r, rownum: i + 1 })),
      )
      .sort();
  }
  if (kind === 'join') {
    const a = Array.from({ length: JOIN_COUNT }, (_, seq) => generatorRecord(generatorParams(JOIN_GEN), seq));
    const b = Array.from({ length: JOIN_COUNT }, (_, seq) => generatorRecord(generatorParams(JOIN_GEN_R), seq));
    const out: string[] = [];
    const bByKey = new Map<string, typeof b>();
    for (const r of b) {
      const l = bByKey.get(r.key) ?? [];
      l.push(r);
      bByKey.set(r.key, l);
    }
    const aKeys = new Set(a.map((l) => l.key));
    for (const l of a) {
      const rs = bByKey.get(l.key) ?? [];
      for (const r of rs) out.push(canonical({ lk: l.key, rk: r.key, lseq: l.seq, rseq: r.seq }));
      if (rs.length === 0) out.push(canonical({ lk: l.key, rk: null, lseq: l.seq, rseq: null }));
    }
    for (const r of b) if (!aKeys.has(r.key)) out.push(canonical({ lk: null, rk: r.key, lseq: null, rseq: r.seq }));
    return out.sort();
  }
  // Generators are never late (their jitter is within their watermark bound): every pair joins.
  const q = generatorParams(GEN_R);
  const rights = new Map<string, Array<{ seq: number; ts: number; value: number }>>();
  for (let seq = 0; seq < COUNT; seq++) {
    const r = generatorRecord(q, seq);
    const l = rights.get(r.key) ?? [];
    l.push(r);
    rights.set(r.key, l);
  }
  const out: string[] = [];
  for (const l of recs) {
    for (const r of rights.get(l.key) ?? []) {
      if (kind === 'join.window') {
        const start = Math.floor(l.ts / 50) * 50;
        if (Math.floor(r.ts / 50) * 50 === start)
          out.push(canonical({ window_start: new Date(start).toISOString(), key: l.key, lseq: l.seq, rseq: r.seq }));
      } else if (l.ts >= r.ts - 20 && l.ts <= r.ts + 15)
        out.push(canonical({ key: l.key, lseq: l.seq, rseq: r.seq, v: l.value + r.value }));
    }
  }
  return out.sort();
}

/** The committed output folded into its table (signed counts; a negative or doubled row fails). */
export function committedTable(outDir: string, changelog: boolean): string[] {
  const lines = readCommitted(outDir);
  if (!changelog) return lines.map((l) => canonical(l)).sort();
  const counts = new Map<string, number>();
  for (const l of lines) {
    const { op, data } = JSON.parse(l) as { op: string; data: Record<string, unknown> };
    assert.ok(['+I', '-U', '+U', '-D'].includes(op), `unknown op ${op}`);
    const k = canonical(data);
    counts.set(k, (counts.get(k) ?? 0) + (op === '+I' || op === '+U' ? 1 : -1));
  }
  const table: string[] = [];
  for (const [k, n] of counts) {
    assert.ok(n === 0 || n === 1, `row ${k} has count ${n} after folding: a change was lost or written twice`);
    if (n === 1) table.push(k);
  }
  return table.sort();
}
