/**
 * `npm run bench`: every section of bench/sections.ts, each figure next to a baseline measured in
 * the same run (a ratio, median of at least 3 rounds), written to bench/results.json and
 * bench/RESULTS.md (README links it) with the machine and the date.
 *   --quick             every section small, one round, the slow ones (designer) left out unless
 *                       named: under a minute; writes bench/results-quick.json and
 *                       bench/RESULTS-quick.md instead
 *   --only a,b          only these sections (names in bench/sections.ts); they replace their
 *                       tables in the results file, the other tables stay
 *   --checkpoints, --rocksdb, --designer, --latency, --file-source, --nexmark
 *                       shorthands for section lists (bench/sections.ts FLAG_SECTIONS)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machine, writeReport, type BenchFigure, type SectionRun } from './report.ts';
import { writeNexmarkReport } from './nexmark-report.ts';
import { FLAG_SECTIONS, SECTIONS } from './sections.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    only: { type: 'string' },
    ...Object.fromEntries(Object.keys(FLAG_SECTIONS).map((f) => [f, { type: 'boolean' as const }])),
  },
});
const quick = values.quick === true;
const wanted = new Set<string>(values.only ? values.only.split(',').map((s) => s.trim()) : []);
for (const [flag, names] of Object.entries(FLAG_SECTIONS))
  if ((values as Record<string, unknown>)[flag] === true) names.forEach((n) => wanted.add(n));
for (const name of wanted)
  if (!SECTIONS.some((s) => s.name === name))
    console.log(`section '${name}' is not in bench/sections.ts on this branch: skipped`);

const started = new Date();
const figures: BenchFigure[] = [];
const sectionRuns: Record<string, SectionRun> = {};
const t0 = performance.now();
for (const section of SECTIONS) {
  if (wanted.size > 0 ? !wanted.has(section.name) : quick && section.slow) continue;
  const dir = mkdtempSync(join(tmpdir(), `weir-bench-${section.name}-`));
  const s0 = performance.now();
  const run: SectionRun = { date: new Date().toISOString(), loadAverage1m: Number(loadavg()[0].toFixed(2)) };
  try {
    const got = await (await section.load()).run({ quick, dir });
    figures.push(...got);
    for (const f of got) sectionRuns[f.section] = run;
    // bench/NEXMARK.md's table comes from the same run as RESULTS.md's Nexmark section.
    if (section.name === 'nexmark' && !quick)
      writeNexmarkReport(
        got,
        { date: run.date, quick, machine: machine(), loadAtStart: run.loadAverage1m, command: 'npm run bench' },
        dirname(fileURLToPath(import.meta.url)),
      );
    console.log(`\n${section.name} (${((performance.now() - s0) / 1000).toFixed(1)} s)`);
    for (const f of got) console.log(`  ${line(f)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const outDir = dirname(fileURLToPath(import.meta.url));
// --only: the named sections replace theirs in the results file; the others stay as measured.
writeReport(figures, {
  quick,
  outDir,
  started,
  suffix: quick ? '-quick' : '',
  sections: sectionRuns,
  merge: wanted.size > 0,
});
console.log(
  `\n${figures.length} figures in ${((performance.now() - t0) / 1000).toFixed(0)} s -> bench/results${quick ? '-quick' : ''}.json, bench/RESULTS${quick ? '-quick' : ''}.md`,
);

function line(f: BenchFigure): string {
  const n = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3));
  const base = f.baseline ? ` | ${f.baseline.name}: ${n(f.baseline.value)} ${f.baseline.unit ?? f.unit}` : '';
  const ratio = f.ratio === undefined ? '' : ` | ratio ${f.ratio.toFixed(2)}`;
  const target = f.target ? ` (${f.target}: ${f.met ? 'met' : 'NOT met'})` : '';
  return `${f.name}: ${n(f.value)} ${f.unit}${base}${ratio}${target}${f.note ? ` [${f.note}]` : ''}`;
}
