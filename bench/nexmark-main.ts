/**
 * `npm run bench:nexmark`: the Nexmark section alone (bench/nexmark.ts), printed as a table and
 * written to bench/nexmark-results.json and bench/NEXMARK.md.
 *   --events N        events per run (default: 10 s of Flink's per-core rate for the query)
 *   --rounds N        runs per query and backend, median reported (default 3)
 *   --queries q0,q5   only these queries
 *   --backend heap|rocksdb   only this backend
 *   --quick           100,000 events, one run each
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machine, toMarkdown } from './report.ts';
import { run } from './nexmark.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    rounds: { type: 'string' },
    queries: { type: 'string' },
    backend: { type: 'string' },
    quick: { type: 'boolean' },
  },
});
const positive = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`bench:nexmark: --${name}: expected a positive integer, got '${v}'`);
    process.exit(2);
  }
  return n;
};
const backend = values.backend;
if (backend !== undefined && backend !== 'heap' && backend !== 'rocksdb') {
  console.error(`bench:nexmark: --backend: expected heap or rocksdb, got '${backend}'`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'weir-bench-nexmark-'));
const started = new Date();
try {
  const figures = await run({
    quick: values.quick ?? false,
    dir,
    events: positive('events', values.events),
    rounds: positive('rounds', values.rounds),
    queries: values.queries?.split(',').map((q) => q.trim()),
    backends: backend ? [backend] : undefined,
    log: (line) => console.log(line),
  });
  const meta = { date: started.toISOString(), quick: values.quick ?? false, machine: machine() };
  const md = toMarkdown(figures, meta);
  const out = fileURLToPath(new URL('.', import.meta.url));
  writeFileSync(join(out, 'nexmark-results.json'), JSON.stringify({ ...meta, figures }, null, 2) + '\n');
  writeFileSync(join(out, 'NEXMARK.md'), md);
  console.log('\n' + md);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
