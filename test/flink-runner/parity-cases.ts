/**
 * The jobs the Flink parity test runs twice, once in Weir and once on real Flink: every example
 * of examples/ that Flink can run with file connectors, and every case of the parity corpus
 * (test/flink-parity/). Each job gets two copies of its folder (weir/ and flink/), so both runs
 * read the same data and each writes its own sink folders; the Flink copy's exported script is
 * flink/job.sql. Rows are compared as multisets after `normalizeRows`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportFlinkSql } from '../../engine/export/flink-sql/index.ts';
import { splitCsvLine } from '../../engine/connectors/sample-columns.ts';
import { validateJob } from '../../engine/graph/validate.ts';
import { caseJob, inputLines, loadCorpus } from '../flink-parity/corpus.ts';
import { readRecording, type Recording } from '../flink-parity/recording.ts';
import { ROOT } from './runner-support.ts';

export interface SinkSpec {
  id: string;
  path: string;
  format: string;
}

export interface ParityJob {
  /** `example:<name>` or `corpus:<file>#<index>`. */
  id: string;
  title: string;
  doc: Record<string, unknown>;
  weirDir: string;
  flinkDir: string;
  script: string;
  sinks: SinkSpec[];
  /** Corpus cases Flink must fail: the cited error. */
  expectFailure?: string;
  /** Corpus cases: what an earlier Flink run gave (test/flink-parity/recorded/), if recorded. */
  recording?: Recording;
}

/** Examples Flink cannot run here, and why (everything else in examples/ runs). */
export const EXAMPLES_LEFT_OUT: Record<string, string> = {
  'postgres-cdc-upsert': 'needs a PostgreSQL server and the postgres-cdc and jdbc connectors (not file connectors)',
  'postgres-cdc-kafka': 'needs a PostgreSQL server, a Kafka broker and the postgres-cdc connector, and runs unbounded',
  'kafka-window':
    'needs a Kafka broker and runs unbounded; its bounded twin runs on Flink and in Weir in kafka-on-flink.test.ts',
  'live-sensors':
    "an unbounded generator (never finishes), and Flink's datagen connector has no seed: the rows cannot be the same",
  'sensor-sliding':
    "its generator becomes Flink's datagen connector, whose random fields have no seed: the rows cannot be the same",
  nexmark:
    "its source becomes the 'nexmark' connector (nexmark-flink), which Maven Central does not serve; the suite's own SQL runs on Flink from files in nexmark-on-flink.ts, and the canvases are compared against DuckDB in test/examples/nexmark-queries.test.ts",
};

export function sinksOf(doc: Record<string, unknown>): SinkSpec[] {
  const nodes = doc.nodes as Array<{ id: string; type: string; config: { path?: string; format?: string } }>;
  return nodes
    .filter((n) => n.type === 'sink.file')
    .map((n) => ({ id: n.id, path: n.config.path!, format: n.config.format ?? 'jsonl' }));
}

export function exportTo(dir: string, doc: Record<string, unknown>, flinkVersion: '1.20' | '2.x'): string {
  const v = validateJob(doc, { baseDir: dir });
  if (!v.ok) throw new Error(`${dir}: invalid job: ${v.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  const script = join(dir, 'job.sql');
  writeFileSync(script, exportFlinkSql(v.job, { flinkVersion }).text);
  return script;
}

export function exampleJobs(root: string, flinkVersion: '1.20' | '2.x'): ParityJob[] {
  const out: ParityJob[] = [];
  for (const name of readdirSync(join(ROOT, 'examples')).sort()) {
    const file = join(ROOT, 'examples', name, 'job.weir.json');
    if (EXAMPLES_LEFT_OUT[name] || !existsSync(file)) continue;
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const weirDir = join(root, `example-${name}`, 'weir');
    const flinkDir = join(root, `example-${name}`, 'flink');
    for (const dir of [weirDir, flinkDir]) {
      mkdirSync(dir, { recursive: true });
      cpSync(join(ROOT, 'examples', name, 'data'), join(dir, 'data'), { recursive: true });
    }
    out.push({
      id: `example:${name}`,
      title: String(doc.name),
      doc,
      weirDir,
      flinkDir,
      script: exportTo(flinkDir, doc, flinkVersion),
      sinks: sinksOf(doc),
    });
  }
  return out;
}

export function corpusJobs(root: string, flinkVersion: '1.20' | '2.x'): ParityJob[] {
  return loadCorpus().map((c, i) => {
    const doc = caseJob(c);
    const weirDir = join(root, `corpus-${i}`, 'weir');
    const flinkDir = join(root, `corpus-${i}`, 'flink');
    for (const dir of [weirDir, flinkDir]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'in.jsonl'), inputLines(c));
    }
    return {
      id: `corpus:${c.id}`,
      title: c.name,
      doc,
      weirDir,
      flinkDir,
      script: exportTo(flinkDir, doc, flinkVersion),
      sinks: sinksOf(doc),
      ...(c.expectFailure !== undefined ? { expectFailure: c.expectFailure } : {}),
      recording: readRecording(c),
    };
  });
}

/**
 * What a Flink filesystem sink committed: the visible files of its folder (in-progress and pending
 * files are hidden, named `.part-...`). Flink's CSV has no header line: `columns` names the fields
 * (Weir's header gives them).
 */
export function readFlinkSink(dir: string, format: string, columns: string[]): Array<Record<string, unknown>> {
  if (!existsSync(dir)) return [];
  const rows: Array<Record<string, unknown>> = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (name.startsWith('.') || !statSync(p).isFile()) continue;
    for (const line of readFileSync(p, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      if (format === 'csv') rows.push(Object.fromEntries(splitCsvLine(line).map((v, i) => [columns[i] ?? `c${i}`, v])));
      else rows.push(JSON.parse(line) as Record<string, unknown>);
    }
  }
  return rows;
}

/** The columns of Weir's CSV sink output (its header line), for reading Flink's header-less CSV. */
export function csvHeader(dir: string): string[] {
  if (!existsSync(dir)) return [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const first = readFileSync(join(dir, name), 'utf8').split('\n')[0];
    if (first) return splitCsvLine(first);
  }
  return [];
}

/** The sink folder of a job copy. */
export function sinkDir(jobDir: string, sink: SinkSpec): string {
  return resolve(jobDir, sink.path);
}
