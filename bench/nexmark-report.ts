/**
 * bench/NEXMARK.md from the figures of bench/nexmark.ts: one table per backend, a row per query
 * with Weir's and Flink's events per second, whole process and steady state, and their ratios.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchFigure } from './report.ts';

interface Meta {
  date: string;
  quick: boolean;
  machine: Record<string, unknown>;
  /** Load average (1 min) when the run started. */
  loadAtStart?: number;
  /** The command that ran it: `npm run bench:nexmark`, or the whole `npm run bench`. */
  command?: string;
}

/** bench/nexmark-results.json and bench/NEXMARK.md (into `outDir`); returns the Markdown. */
export function writeNexmarkReport(figures: BenchFigure[], meta: Meta, outDir: string): string {
  const md = nexmarkMarkdown(figures, meta);
  writeFileSync(join(outDir, 'nexmark-results.json'), JSON.stringify({ ...meta, figures }, null, 2) + '\n');
  writeFileSync(join(outDir, 'NEXMARK.md'), md);
  return md;
}

const rate = (x: number | undefined) => (x === undefined || !(x > 0) ? 'n/a' : Math.round(x).toLocaleString('en-US'));
const times = (f: BenchFigure | undefined) =>
  f?.ratio === undefined ? 'n/a' : `${f.ratio.toFixed(2)}${f.met ? '' : ' **(no)**'}`;

export function nexmarkMarkdown(figures: BenchFigure[], meta: Meta): string {
  const flink = figures.find((f) => f.baseline)?.baseline?.name ?? 'Flink (not run)';
  const lines = [
    '# Nexmark: Weir next to Flink on the same machine',
    '',
    `Written by \`${meta.command ?? 'npm run bench:nexmark'}\` (bench/nexmark.ts) on ${meta.date}${meta.quick ? ' (`--quick`: a smoke test, not figures to quote)' : ''}.`,
    '',
    `Machine: ${JSON.stringify(meta.machine)}${meta.loadAtStart !== undefined ? `; load average at the start ${meta.loadAtStart}` : ''}.`,
    '',
    `Both engines read the same generated event files (person/auction/bid.jsonl, seed 0) at parallelism 1:`,
    `Weir with its file source, ${flink} (Weir's Flink runner, a local MiniCluster) with the filesystem`,
    "connector and json format as Weir's exporter writes them. Results are discarded in both, by a",
    "blackhole sink (`sink.blackhole`, exported as Flink's `blackhole`), as the Nexmark suite. Checkpoints every 10 s.",
    '',
    '- **whole process**: `weir run` from spawn to exit; Flink: JVM and MiniCluster start plus the script',
    '  from planning to its job end. One Flink JVM runs every query of a backend in turn, so Flink',
    "  pays its start-up once per query but later queries find a warm JVM (in Flink's favour).",
    "- **steady state**: Weir in process from the task's `running` to `finishing`; Flink from its last",
    '  subtask RUNNING to its last FINISHED, by the timestamps its JobManager records per subtask.',
    '- How to read these runs, and where a profile should start: [docs/performance.md](../docs/performance.md).',
    '- Ratios are Weir over Flink, events per wall-clock second. Targets (issue 27): >= 3x on heap,',
    '  >= 1x on RocksDB. One run per cell; the machine is shared (2 cores, other work running), which',
    '  slows both engines, and the engines ran one after the other, not at once: expect ±30 % noise.',
  ];
  for (const backend of ['heap', 'rocksdb']) {
    const rows = figures.filter((f) => f.name.split(' ')[1] === backend);
    if (rows.length === 0) continue;
    const queries = [...new Set(rows.map((f) => f.name.split(' ')[0]))];
    const target = rows[0].target ?? '';
    lines.push(
      '',
      `## ${backend === 'heap' ? 'Heap (Weir `fs`, Flink `hashmap`)' : 'RocksDB (incremental checkpoints)'}: target ${target}`,
      '',
      '| query | events | Weir whole, events/s | Flink whole | x | Weir steady | Flink steady | x |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    let met = 0;
    let measured = 0;
    const notes: string[] = [];
    for (const q of queries) {
      const whole = rows.find((f) => f.name === `${q} ${backend} whole process`);
      const steady = rows.find((f) => f.name === `${q} ${backend} steady state`);
      const events = /^([\d,]+) events/.exec(whole?.note ?? '')?.[1] ?? '';
      for (const f of [whole, steady]) {
        if (f?.ratio === undefined) continue;
        measured++;
        if (f.met) met++;
      }
      const failed = /(?:invalid|failed|not run): [^;]*/.exec(whole?.note ?? '')?.[0];
      if (failed) notes.push(`- ${q}: ${failed}`);
      lines.push(
        `| ${q} | ${events} | ${rate(whole?.value)} | ${rate(whole?.baseline?.value)} | ${times(whole)} | ` +
          `${rate(steady?.value)} | ${rate(steady?.baseline?.value)} | ${times(steady)} |`,
      );
    }
    const loads = /load average ([\d.]+) when Flink's run started, ([\d.]+) when Weir's/.exec(rows[0].note ?? '');
    lines.push('', `Target met in ${met} of ${measured} measured cells.`);
    if (loads)
      lines.push(`Load average (1 min) when Flink's runs started: ${loads[1]}; when Weir's started: ${loads[2]}.`);
    if (notes.length > 0) lines.push('', ...notes);
  }
  return lines.join('\n') + '\n';
}
