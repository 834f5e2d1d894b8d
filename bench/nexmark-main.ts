/**
 * `npm run bench:nexmark`: the Nexmark section alone (bench/nexmark.ts, Weir next to Flink on the
 * same event files), printed as a table and written to bench/nexmark-results.json and
 * bench/NEXMARK.md.
 *   --events N             events of every query (default 250,000; 50,000 for the slow ones)
 *   --queries q0,q5        only these queries
 *   --backend heap|rocksdb only this backend
 *   --flink-version 1.20|2.x   the Flink line the runner runs (default 1.20)
 *   --quick                30,000 events, q0, q5 and q8 only: a smoke test
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FLINK_LINES, type FlinkLine } from '../engine/flink/runner-process.ts';
import { machine } from './report.ts';
import { run } from './nexmark.ts';
import { writeNexmarkReport } from './nexmark-report.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    queries: { type: 'string' },
    backend: { type: 'string' },
    'flink-version': { type: 'string' },
    quick: { type: 'boolean' },
  },
});
function fail(message: string): never {
  console.error(`bench:nexmark: ${message}`);
  process.exit(2);
}
let events: number | undefined;
if (values.events !== undefined) {
  events = Number(values.events);
  if (!Number.isSafeInteger(events) || events < 1)
    fail(`--events: expected a positive integer, got '${values.events}'`);
}
const backend = values.backend;
if (backend !== undefined && backend !== 'heap' && backend !== 'rocksdb')
  fail(`--backend: expected heap or rocksdb, got '${backend}'`);
const line = values['flink-version'] ?? '1.20';
if (!FLINK_LINES.includes(line as FlinkLine)) fail(`--flink-version: expected 1.20 or 2.x, got '${line}'`);
const dir = mkdtempSync(join(tmpdir(), 'weir-bench-nexmark-'));
const started = new Date();
const loadAtStart = Number(loadavg()[0].toFixed(2));
try {
  const figures = await run({
    quick: values.quick ?? false,
    dir,
    events,
    queries: values.queries?.split(',').map((q) => q.trim()),
    backends: backend ? [backend] : undefined,
    flinkLine: line as FlinkLine,
    log: (l) => console.log(l),
  });
  const meta = { date: started.toISOString(), quick: values.quick ?? false, machine: machine(), loadAtStart };
  const md = writeNexmarkReport(figures, meta, fileURLToPath(new URL('.', import.meta.url)));
  console.log('\n' + md);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
