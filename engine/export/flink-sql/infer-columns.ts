import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FileSourceConfig } from '../../graph/types.ts';
import type { Column } from './context.ts';

/**
 * Columns of a file source, read from a sample of its data (Node only): the first lines of the file,
 * or of the first file in a folder. JSON numbers become BIGINT or DOUBLE, booleans BOOLEAN, strings
 * (ISO timestamps included: the event-time column is derived from them) STRING; a CSV file's header
 * gives the order and its values are typed the same way. A column whose sampled values disagree is
 * widened (BIGINT+DOUBLE = DOUBLE, anything else = STRING).
 */
const SAMPLE_BYTES = 256 * 1024;
const SAMPLE_LINES = 1000;

export type InferResult = { ok: true; columns: Column[] } | { ok: false; message: string };

export function inferFileColumns(config: FileSourceConfig, baseDir?: string): InferResult {
  const target = resolve(baseDir ?? '.', config.path);
  let file = target;
  try {
    if (statSync(target).isDirectory()) {
      const first = readdirSync(target).filter((n) => !n.startsWith('.') && !n.startsWith('_')).sort()[0];
      if (!first) return { ok: false, message: `folder ${config.path} holds no data file to sample` };
      file = join(target, first);
    }
  } catch {
    return { ok: false, message: `cannot read ${config.path} to infer its columns` };
  }
  const lines = sampleLines(file);
  if (lines.length === 0) return { ok: false, message: `${config.path} is empty: no columns to infer` };
  return { ok: true, columns: config.format === 'csv' ? inferCsv(lines) : inferJsonl(lines) };
}

function sampleLines(file: string): string[] {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(SAMPLE_BYTES);
    const n = readSync(fd, buf, 0, SAMPLE_BYTES, 0);
    let text = buf.subarray(0, n).toString('utf8');
    if (n === SAMPLE_BYTES) text = text.slice(0, text.lastIndexOf('\n') + 1); // drop a cut line
    return text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, SAMPLE_LINES);
  } finally {
    closeSync(fd);
  }
}

type Kind = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'STRING';

function widen(a: Kind | undefined, b: Kind): Kind {
  if (a === undefined || a === b) return b;
  if ((a === 'BIGINT' && b === 'DOUBLE') || (a === 'DOUBLE' && b === 'BIGINT')) return 'DOUBLE';
  return 'STRING';
}

function jsonKind(v: unknown): Kind | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? 'BIGINT' : 'DOUBLE';
  return 'STRING';
}

function inferJsonl(lines: string[]): Column[] {
  const kinds = new Map<string, Kind | undefined>();
  for (const line of lines) {
    let rec: unknown;
    try { rec = JSON.parse(line); } catch { continue; } // bad records are the source's business
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) continue;
    for (const [k, v] of Object.entries(rec)) {
      const kind = jsonKind(v);
      const seen = kinds.get(k);
      kinds.set(k, kind === null ? seen : widen(seen, kind));
    }
  }
  return [...kinds].map(([name, kind]) => ({ name, type: kind ?? 'STRING' }));
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
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out;
}

function inferCsv(lines: string[]): Column[] {
  const header = splitCsvLine(lines[0]).map((h) => h.trim());
  const kinds: Array<Kind | undefined> = header.map(() => undefined);
  for (const line of lines.slice(1)) {
    splitCsvLine(line).forEach((v, i) => {
      if (i >= kinds.length) return;
      const kind = csvKind(v);
      if (kind !== null) kinds[i] = widen(kinds[i], kind);
    });
  }
  return header.map((name, i) => ({ name, type: kinds[i] ?? 'STRING' }));
}
