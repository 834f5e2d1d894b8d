/**
 * The chaos job: >= 200k generated out-of-order events through a filter, a keyed tumbling window
 * and a union with a second (filter + map) branch, into a two-phase-commit file sink. The reference
 * result is computed here by a plain loop over the same records.
 */
import type { StateBackendKind } from '../../engine/graph/types.ts';
import { generatorParams, generatorRecord } from '../../engine/connectors/generator-source.ts';

export const EVENTS = 200_000;
const GEN = { seed: 42, count: EVENTS, keys: 8, outOfOrderness: 200, step: 10 };
const WINDOW_MS = 10_000;

export function chaosJob(backend: StateBackendKind, opts: { rate: number; attempts?: number; parallelism?: number }) {
  return {
    format: 'weir.job/v1',
    name: `chaos-${backend}`,
    settings: {
      parallelism: opts.parallelism ?? 2,
      stateBackend: backend,
      checkpointing: { interval: '150ms', dir: 'checkpoints', retained: 2 },
      restart: { attempts: opts.attempts ?? 3, delay: '50ms' },
    },
    nodes: [
      {
        id: 'gen',
        type: 'source.generator',
        config: { ...GEN, rate: opts.rate, eventTime: { field: 'ts', maxOutOfOrderness: 200 } },
      },
      { id: 'big', type: 'filter', config: { where: 'value >= 100' } },
      {
        id: 'win',
        type: 'window',
        config: {
          keyBy: 'key',
          window: { kind: 'tumbling', size: '10s' },
          aggregates: 'COUNT(*) AS n, SUM(value) AS total',
        },
      },
      { id: 'small', type: 'filter', config: { where: 'value < 5' } },
      {
        id: 'shape',
        type: 'map',
        config: {
          select:
            'CAST(NULL AS STRING) AS window_start, CAST(NULL AS STRING) AS window_end, key, seq AS n, value AS total',
        },
      },
      { id: 'all', type: 'union', config: {} },
      { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } },
    ],
    edges: [
      { from: 'gen', to: 'big' },
      { from: 'big', to: 'win' },
      { from: 'win', to: 'all' },
      { from: 'gen', to: 'small' },
      { from: 'small', to: 'shape' },
      { from: 'shape', to: 'all' },
      { from: 'all', to: 'out' },
    ],
  };
}

/** Expected sink records (canonical JSON, see run-helpers.canonical). */
export function chaosReference(): Array<Record<string, unknown>> {
  const p = generatorParams(GEN);
  const windows = new Map<string, { start: number; key: string; n: number; total: number }>();
  const out: Array<Record<string, unknown>> = [];
  for (let seq = 0; seq < EVENTS; seq++) {
    const r = generatorRecord(p, seq);
    if (r.value >= 100) {
      const start = Math.floor(r.ts / WINDOW_MS) * WINDOW_MS;
      const id = `${start}|${r.key}`;
      const w = windows.get(id) ?? { start, key: r.key, n: 0, total: 0 };
      w.n++;
      w.total += r.value;
      windows.set(id, w);
    }
    if (r.value < 5) out.push({ window_start: null, window_end: null, key: r.key, n: r.seq, total: r.value });
  }
  for (const w of windows.values()) {
    out.push({
      window_start: new Date(w.start).toISOString(),
      window_end: new Date(w.start + WINDOW_MS).toISOString(),
      key: w.key,
      n: w.n,
      total: w.total,
    });
  }
  return out;
}
