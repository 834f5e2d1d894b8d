/**
 * `npm run bench`: engine throughput on a keyed tumbling window over generated events, next to a
 * hand-written single loop doing the same aggregation in this same process, as a ratio; then the
 * checkpoint overhead per backend, RocksDB full vs incremental checkpoints, and the designer's
 * drag-to-repaint time. Naming some of the parts runs only those (after the ratio):
 *   --events N          events (default 5,000,000)
 *   --rounds N          alternating rounds of engine and hand loop, best of each (default 3)
 *   --checkpoints       throughput with a checkpoint every second vs none, per state backend
 *   --rocksdb           RocksDB full vs incremental checkpoint bytes/durations, restore time
 *   --designer          canvas drag responsiveness in Chromium (bench/designer.ts)
 *   --quick             only the ratio
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generatorParams } from '../engine/connectors/generator-source.ts';
import { GENERATOR, benchJob, runEngine } from './engine-run.ts';
import { handLoop } from './hand-loop.ts';
import type { StateBackendKind } from '../engine/graph/types.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    rounds: { type: 'string' },
    checkpoints: { type: 'boolean' },
    rocksdb: { type: 'boolean' },
    designer: { type: 'boolean' },
    quick: { type: 'boolean' },
  },
});
const all = !values.quick && !values.checkpoints && !values.rocksdb && !values.designer;
const count = Number(values.events ?? 5_000_000);
const keys = 100;
const windowMs = 10_000;
const ROUNDS = Number(values.rounds ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'weir-bench-'));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

try {
  // Alternate the two, several rounds, and keep each one's best: a shared machine's noise then
  // hurts neither side more than the other. The medians and the load show how noisy it was.
  const handTimes: number[] = [],
    engineTimes: number[] = [];
  let handRows = 0;
  const load0 = loadavg()[0];
  for (let round = 0; round < ROUNDS; round++) {
    const hand = handLoop(generatorParams({ ...GENERATOR, keys, count }), count, windowMs, join(dir, 'hand.jsonl'));
    handTimes.push(hand.ms);
    handRows = hand.rows;
    const engine = await runEngine(
      benchJob({
        count,
        keys,
        windowMs,
        outDir: `out-heap-${round}`,
        baseDir: dir,
        backend: 'memory',
        checkpointInterval: null,
      }),
    );
    engineTimes.push(engine.ms);
  }
  const handMs = Math.min(...handTimes),
    engineMs = Math.min(...engineTimes);
  const handRate = count / (handMs / 1000);
  const engineRate = count / (engineMs / 1000);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `keyed tumbling window (${keys} keys, 10 s windows) over ${fmt(count)} generated events, heap backend, parallelism 1`,
  );
  console.log(
    `  engine:       ${fmt(engineRate)} events/s (best of ${ROUNDS}: ${s(engineMs)}; median ${s(median(engineTimes))})`,
  );
  console.log(
    `  hand loop:    ${fmt(handRate)} events/s (best of ${ROUNDS}: ${s(handMs)}; median ${s(median(handTimes))}; ${fmt(handRows)} result rows)`,
  );
  console.log(
    `  ratio:        ${(engineRate / handRate).toFixed(2)} (engine / hand-written loop, best vs best; medians ${(median(handTimes) / median(engineTimes)).toFixed(2)}; aim >= 0.5)`,
  );
  console.log(
    `  machine:      ${cpus().length} cores, load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)} (other processes make both sides noisy)`,
  );

  if (values.checkpoints || all) {
    console.log('\ncheckpoint overhead (a checkpoint every second vs none):');
    for (const backend of ['memory', 'fs', 'rocksdb'] as StateBackendKind[]) {
      // Long enough for several checkpoints at each backend's speed (~8 s per run).
      const n = backend === 'rocksdb' ? count * 2 : count * 10;
      const off = await runEngine(
        benchJob({
          count: n,
          keys,
          windowMs,
          outDir: `out-${backend}-off`,
          baseDir: dir,
          backend,
          checkpointInterval: null,
        }),
      );
      const on = await runEngine(
        benchJob({
          count: n,
          keys,
          windowMs,
          outDir: `out-${backend}-on`,
          baseDir: dir,
          backend,
          checkpointInterval: 1000,
        }),
      );
      const rOff = n / (off.ms / 1000);
      const rOn = n / (on.ms / 1000);
      console.log(
        `  ${backend.padEnd(8)} off ${fmt(rOff)} events/s | on ${fmt(rOn)} events/s (${on.checkpoints} checkpoints) | overhead ${((1 - rOn / rOff) * 100).toFixed(1)}%`,
      );
    }
  }
  if (values.rocksdb || all) {
    const { runCheckpointRocksDBBench, formatCheckpointRocksDBBench } = await import('./checkpoint-rocksdb.ts');
    console.log('\n' + formatCheckpointRocksDBBench(await runCheckpointRocksDBBench()));
  }
  if (values.designer || all) {
    const { measureDesignerDrag } = await import('./designer.ts');
    const r = await measureDesignerDrag();
    console.log(
      r
        ? `\ndesigner drag (${r.nodes} nodes, ${r.edges} edges): median ${r.medianMs.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms`
        : '\ndesigner drag: skipped (no Chromium)',
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function median(xs: number[]): number {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
}
