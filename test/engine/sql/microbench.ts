/**
 * Sanity micro-check of the compiled closures' speed (not a test: no timing is asserted).
 * Run: node --import tsx test/engine/sql/microbench.ts
 */
import {
  accumulatorFor,
  compileAggregates,
  compileCondition,
  compileProjection,
  parseKeyBy,
} from '../../../engine/sql/index.ts';

const N = 2_000_000;
const rows = Array.from({ length: 1024 }, (_, i) => ({
  seq: i,
  key: `k${i % 50}`,
  value: (i * 7) % 100,
  ts: 1_700_000_000_000 + i,
}));

function measure(label: string, fn: (row: Record<string, unknown>) => unknown): void {
  let sink = 0;
  for (let i = 0; i < 100_000; i++) if (fn(rows[i & 1023])) sink++; // warm-up
  const t0 = performance.now();
  for (let i = 0; i < N; i++) if (fn(rows[i & 1023])) sink++;
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(56)} ${(N / ms / 1000).toFixed(1).padStart(7)} M rows/s  (${sink})`);
}

measure("where value >= 10 AND key <> 'k3'", compileCondition("value >= 10 AND key <> 'k3'"));
measure("where key LIKE 'k1%' OR value BETWEEN 5 AND 9", compileCondition("key LIKE 'k1%' OR value BETWEEN 5 AND 9"));
measure('where value IN (1, 2, 3, 50) AND seq % 2 = 0', compileCondition('value IN (1, 2, 3, 50) AND seq % 2 = 0'));
measure(
  'select key, value * 2 AS v2, UPPER(key) AS k',
  compileProjection('key, value * 2 AS v2, UPPER(key) AS k').project,
);
measure('keyBy key', parseKeyBy('key').keyOf);
const [sum] = compileAggregates('SUM(value) AS s');
const acc = accumulatorFor(sum.fn);
let state = acc.create();
measure('SUM(value) accumulate', (row) => {
  state = acc.add(state, sum.input(row));
  return true;
});
