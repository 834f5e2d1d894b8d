/**
 * The shape every bench section returns, and the writer of `bench/results.json` and
 * `bench/RESULTS.md`. Every figure stands next to the baseline measured in the same run (a ratio,
 * so a busy machine slows both sides), with the target it is held to and whether it met it.
 *
 * A section is a module exporting `run(opts): Promise<BenchFigure[]>`; bench/main.ts runs the
 * sections asked for and hands all figures to `writeReport`.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, platform, release } from 'node:os';

export interface BenchOptions {
  /** `--quick`: the whole bench in under a minute: fewer events, fewer rounds, short sections only. */
  quick: boolean;
  /** A scratch folder the section may fill; bench/main.ts deletes it afterwards. */
  dir: string;
}

export interface BenchFigure {
  /** The table the figure goes into, e.g. 'Nexmark', 'File source', 'Checkpoint overhead'. */
  section: string;
  /** What was measured, e.g. 'q5 heap', 'rocksdb 1 s checkpoints'. */
  name: string;
  value: number;
  /** 'events/s', 'ms', 'MB', 'keys/s', '%'... */
  unit: string;
  /** The comparison measured in the same run (or a published anchor, said so in its name). */
  baseline?: { name: string; value: number; unit?: string };
  /** value / baseline.value, or whatever ratio the target speaks of. */
  ratio?: number;
  /** The target in words, e.g. '>= 0.6 of the hand loop', '< 10% overhead'. */
  target?: string;
  met?: boolean;
  /** Every sample the value is the median of (at least 3 outside --quick). */
  samples?: number[];
  note?: string;
}

export type BenchSection = (opts: BenchOptions) => Promise<BenchFigure[]>;

export function median(xs: number[]): number {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length === 0 ? NaN : a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
}

export function machine(): Record<string, unknown> {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    loadAverage1m: Number(loadavg()[0].toFixed(2)),
  };
}

const fmt = (n: number) =>
  !Number.isFinite(n)
    ? String(n)
    : Math.abs(n) >= 100
      ? Math.round(n).toLocaleString('en-US')
      : Number(n.toPrecision(3)).toString();

export function toMarkdown(figures: BenchFigure[], meta: Record<string, unknown>): string {
  const lines = [
    '# Weir benchmark results',
    '',
    `Written by \`npm run bench\` on ${String(meta.date)}${meta.quick ? ' (`--quick`: smaller runs, rougher figures)' : ''}.`,
    '',
    `Machine: ${JSON.stringify(meta.machine)}`,
    '',
    'Every ratio compares against a baseline measured in the same run, so a busy machine slows both sides.',
  ];
  const sections = [...new Set(figures.map((f) => f.section))];
  for (const section of sections) {
    lines.push(
      '',
      `## ${section}`,
      '',
      '| measured | value | baseline | ratio | target | met |',
      '|---|---|---|---|---|---|',
    );
    for (const f of figures.filter((x) => x.section === section)) {
      const base = f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value)} ${f.baseline.unit ?? f.unit}` : '';
      const met = f.met === undefined ? '' : f.met ? 'yes' : '**no**';
      const note = f.note ? ` (${f.note})` : '';
      lines.push(
        `| ${f.name}${note} | ${fmt(f.value)} ${f.unit} | ${base} | ${f.ratio === undefined ? '' : f.ratio.toFixed(2)} | ${f.target ?? ''} | ${met} |`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

/** Writes bench/results.json and bench/RESULTS.md (or into `outDir`), returns the Markdown. */
export function writeReport(
  figures: BenchFigure[],
  opts: { quick: boolean; outDir: string; started: Date; suffix?: string },
): string {
  const meta = { date: opts.started.toISOString(), quick: opts.quick, machine: machine() };
  const suffix = opts.suffix ?? '';
  writeFileSync(`${opts.outDir}/results${suffix}.json`, JSON.stringify({ ...meta, figures }, null, 2) + '\n');
  const md = toMarkdown(figures, meta);
  writeFileSync(`${opts.outDir}/RESULTS${suffix}.md`, md);
  return md;
}
