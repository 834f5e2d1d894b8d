/**
 * The shape every bench section returns, and the writer of `bench/results.json` and
 * `bench/RESULTS.md`. Every figure stands next to the baseline measured in the same run (a ratio,
 * so a busy machine slows both sides), with the target it is held to and whether it met it.
 *
 * A section is a module exporting `run(opts): Promise<BenchFigure[]>`; bench/main.ts runs the
 * sections asked for and hands all figures to `writeReport`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

/** When a table was measured: its section's start, and the machine's load then (1 min average). */
export interface SectionRun {
  date: string;
  loadAverage1m: number;
}

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
    'Where the time goes, what changed it and the limits that are not ours: [docs/performance.md](../docs/performance.md).',
  ];
  const sections = [...new Set(figures.map((f) => f.section))];
  for (const section of sections) {
    const when = (meta.sections as Record<string, SectionRun> | undefined)?.[section];
    lines.push('', `## ${section}`, '');
    if (when) lines.push(`Measured ${when.date}, load average ${when.loadAverage1m} at its start.`, '');
    lines.push('| measured | value | baseline | ratio | target | met |', '|---|---|---|---|---|---|');
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
  opts: {
    quick: boolean;
    outDir: string;
    started: Date;
    suffix?: string;
    sections?: Record<string, SectionRun>;
    /** Keep the other sections of the results file there (a run of some sections only). */
    merge?: boolean;
  },
): string {
  const suffix = opts.suffix ?? '';
  let sections = opts.sections ?? {};
  if (opts.merge && existsSync(`${opts.outDir}/results${suffix}.json`)) {
    const prev = JSON.parse(readFileSync(`${opts.outDir}/results${suffix}.json`, 'utf8')) as {
      date: string;
      machine: { loadAverage1m?: number };
      sections?: Record<string, SectionRun>;
      figures: BenchFigure[];
    };
    const fresh = new Set(figures.map((f) => f.section));
    const kept = prev.figures.filter((f) => !fresh.has(f.section));
    const keptRuns: Record<string, SectionRun> = {};
    for (const f of kept)
      keptRuns[f.section] = prev.sections?.[f.section] ?? {
        date: prev.date,
        loadAverage1m: prev.machine.loadAverage1m ?? NaN,
      };
    // The file's sections stay in their order; new ones go after them.
    const order = [...new Set([...prev.figures.map((f) => f.section), ...fresh])];
    figures = [...kept, ...figures].sort((a, b) => order.indexOf(a.section) - order.indexOf(b.section));
    sections = { ...keptRuns, ...sections };
  }
  const meta = { date: opts.started.toISOString(), quick: opts.quick, machine: machine(), sections };
  writeFileSync(`${opts.outDir}/results${suffix}.json`, JSON.stringify({ ...meta, figures }, null, 2) + '\n');
  let md = toMarkdown(figures, meta);
  const mdFile = `${opts.outDir}/RESULTS${suffix}.md`;
  // Only the tables measured now change: the others keep their text (notes written by hand too).
  if (opts.merge && existsSync(mdFile))
    md = spliceSections(readFileSync(mdFile, 'utf8'), md, new Set(Object.keys(opts.sections ?? {})));
  writeFileSync(mdFile, md);
  return md;
}

/** `existing` with its `## name` blocks for `names` replaced by those of `fresh` (appended when new). */
export function spliceSections(existing: string, fresh: string, names: ReadonlySet<string>): string {
  const blocks = (md: string) => md.split(/\n(?=## )/);
  const title = (block: string) => /^## (.*)/.exec(block)?.[1] ?? '';
  const freshBlocks = new Map(blocks(fresh).map((b) => [title(b), b.trimEnd()]));
  const out = blocks(existing).map((b) =>
    names.has(title(b)) ? (freshBlocks.get(title(b)) ?? b.trimEnd()) : b.trimEnd(),
  );
  for (const name of names)
    if (!out.some((b) => title(b) === name) && freshBlocks.has(name)) out.push(freshBlocks.get(name)!);
  return out.join('\n\n') + '\n';
}
