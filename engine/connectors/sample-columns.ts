import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FileSourceConfig } from '../graph/types.ts';

/** A column of a source's data: name and Flink SQL type. */
export interface Column {
  name: string;
  type: string;
}

/**
 * Columns of a file source, read from a sample of its data (Node only). The Flink SQL export
 * declares them in CREATE TABLE, and the runtime types undeclared columns with them, so that both
 * type a column the same way (engine/graph/column-types.ts): the first lines of the file,
 * or of the first file in a folder. JSON numbers become BIGINT or DOUBLE, booleans BOOLEAN, strings
 * (ISO timestamps included: the event-time column is derived from them) STRING; a CSV file's header
 * gives the order and its values are typed the same way (the header line itself is never a sample).
 * A column whose sampled values disagree takes the type most of them have, BIGINT and DOUBLE counted
 * together (and DOUBLE when any has a fraction): one malformed value ('12x' in a column of numbers)
 * never turns the column into STRING, which would make every row's arithmetic or event time fail.
 * Values of the minority are reported in `ignored` (Flink reads them as NULL; the export warns).
 */
const SAMPLE_BYTES = 256 * 1024;
const SAMPLE_LINES = 1000;

/** A sampled value that does not have its column's type: 1-based line in the sample, and the value. */
export interface IgnoredSample {
  column: string;
  line: number;
  value: string;
  count: number;
}

export type InferResult = { ok: true; columns: Column[]; ignored?: IgnoredSample[] } | { ok: false; message: string };

export function inferFileColumns(config: FileSourceConfig, baseDir?: string): InferResult {
  const target = resolve(baseDir ?? '.', config.path);
  let file = target;
  try {
    if (statSync(target).isDirectory()) {
      const first = readdirSync(target)
        .filter((n) => !n.startsWith('.') && !n.startsWith('_'))
        .sort()[0];
      if (!first) return { ok: false, message: `folder ${config.path} holds no data file to sample` };
      file = join(target, first);
    }
    // A FIFO, device or socket would block or never end a read: only regular files are sampled (the
    // run refuses the others itself, naming them).
    if (!statSync(file).isFile()) return { ok: false, message: `${config.path} is not a regular file to sample` };
  } catch {
    return { ok: false, message: `cannot read ${config.path} to infer its columns` };
  }
  const lines = sampleLines(file);
  if (lines.length === 0) return { ok: false, message: `${config.path} is empty: no columns to infer` };
  return inferColumnsOfLines(lines, config.format);
}

/** The columns sampled lines give (JSON objects, or CSV with a header line first). */
export function inferColumnsOfLines(lines: readonly string[], format: 'jsonl' | 'csv'): InferResult & { ok: true } {
  const tally = format === 'csv' ? tallyCsv(lines) : tallyJsonl(lines);
  const columns: Column[] = [];
  const ignored: IgnoredSample[] = [];
  for (const [name, t] of tally) {
    const { type, minority } = decide(t);
    columns.push({ name, type });
    if (minority.length > 0)
      ignored.push({ column: name, line: minority[0].line, value: minority[0].value, count: minority.length });
  }
  return ignored.length > 0 ? { ok: true, columns, ignored } : { ok: true, columns };
}

function sampleLines(file: string): string[] {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(SAMPLE_BYTES);
    const n = readSync(fd, buf, 0, SAMPLE_BYTES, 0);
    // A byte order mark is not part of the first column's name (file-source.ts skips it too).
    let text = buf
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    if (n === SAMPLE_BYTES) text = text.slice(0, text.lastIndexOf('\n') + 1); // drop a cut line
    return text
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '')
      .slice(0, SAMPLE_LINES);
  } finally {
    closeSync(fd);
  }
}

type Kind = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'STRING';

interface Sample {
  kind: Kind;
  line: number;
  value: string;
}
type Tally = Map<string, Sample[]>;

/** The kind most samples have (BIGINT and DOUBLE pooled as numbers); STRING on a tie or with none. */
function decide(samples: Sample[]): { type: Kind; minority: Sample[] } {
  const numbers = samples.filter((s) => s.kind === 'BIGINT' || s.kind === 'DOUBLE');
  const booleans = samples.filter((s) => s.kind === 'BOOLEAN');
  const strings = samples.filter((s) => s.kind === 'STRING');
  if (numbers.length > booleans.length && numbers.length > strings.length) {
    return {
      type: numbers.some((s) => s.kind === 'DOUBLE') ? 'DOUBLE' : 'BIGINT',
      minority: [...booleans, ...strings].sort((a, b) => a.line - b.line),
    };
  }
  if (booleans.length > numbers.length && booleans.length > strings.length) {
    return { type: 'BOOLEAN', minority: [...numbers, ...strings].sort((a, b) => a.line - b.line) };
  }
  return { type: 'STRING', minority: [] };
}

function jsonKind(v: unknown): Kind | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? 'BIGINT' : 'DOUBLE';
  return 'STRING';
}

function add(tally: Tally, name: string, sample: Sample | null): void {
  let list = tally.get(name);
  if (!list) tally.set(name, (list = []));
  if (sample) list.push(sample);
}

function tallyJsonl(lines: readonly string[]): Tally {
  const tally: Tally = new Map();
  lines.forEach((line, i) => {
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      return;
    } // bad records are the source's business
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return;
    for (const [k, v] of Object.entries(rec)) {
      const kind = jsonKind(v);
      add(tally, k, kind === null ? null : { kind, line: i + 1, value: typeof v === 'string' ? v : JSON.stringify(v) });
    }
  });
  return tally;
}

function csvKind(v: string): Kind | null {
  if (v === '') return null;
  if (/^-?\d{1,15}$/.test(v)) return 'BIGINT';
  if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return 'DOUBLE';
  if (v === 'true' || v === 'false') return 'BOOLEAN';
  return 'STRING';
}

/** RFC 4180 fields of one line (quotes with doubled quotes inside). */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function tallyCsv(lines: readonly string[]): Tally {
  const header = splitCsvLine(lines[0]).map((h) => h.trim());
  const tally: Tally = new Map();
  for (const h of header) tally.set(h, []);
  lines.slice(1).forEach((line, i) => {
    splitCsvLine(line).forEach((v, j) => {
      if (j >= header.length) return;
      const kind = csvKind(v);
      if (kind !== null) tally.get(header[j])!.push({ kind, line: i + 2, value: v });
    });
  });
  return tally;
}
