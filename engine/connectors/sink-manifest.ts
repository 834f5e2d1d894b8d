/**
 * The manifest of a file-sink folder: which committed files Weir wrote there, for which job, run
 * lineage and checkpoint. It is what lets a restore roll back exactly the output committed after
 * the restored checkpoint, and `--clear-output` remove only this job's own files.
 *
 * Format: `<sink>/.weir-sink-manifest.jsonl`, append-only, one entry per line as
 * `{"e": <entry>, "h": <sha256 of JSON(e), 16 hex>}`. Entries:
 *   { kind: 'header', format, job }                      first line
 *   { kind: 'run', lineage }                             a run of the job started with this lineage
 *   { kind: 'commit', lineage, checkpoint, files }       files committed by checkpoint n (written,
 *                                                        fsynced, BEFORE the sinks are told to commit)
 *   { kind: 'undo', lineage, checkpoints, before }       the files of these checkpoints were rolled
 *                                                        back by a restore whose run's first checkpoint
 *                                                        id is `before` (appended BEFORE the deletion)
 * Rules:
 * - An entry is appended and fsynced before the action it describes, so every committed file of a
 *   run is listed (a listed file may be missing: the crash came before its rename).
 * - A last line without its newline is a torn append (the process died writing it): it is ignored,
 *   since the commit it announced was never sent, and cut off before the next append. Any other line failing its hash makes the whole
 *   manifest untrusted (`SinkManifestError`, naming file and line).
 * - A rollback appends its `undo` entry, deletes files, then rewrites the manifest atomically (temp
 *   + fsync + rename): a crash between leaves listed-but-missing files, never unlisted ones. The
 *   undo entries stay: a checkpoint taken before that restore (id < `before`) counted those files
 *   in its output, so restoring it later would leave a hole; file-sink-output.ts refuses it.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, truncateSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST_FILE = '.weir-sink-manifest.jsonl';
export const MANIFEST_FORMAT = 'weir.sink-manifest/v1';

export type ManifestEntry =
  | { kind: 'header'; format: typeof MANIFEST_FORMAT; job: string }
  | { kind: 'run'; lineage: string }
  | { kind: 'commit'; lineage: string; checkpoint: number; files: string[] }
  | { kind: 'undo'; lineage: string; checkpoints: number[]; before: number };

export class SinkManifestError extends Error {
  override name = 'SinkManifestError';
}

/** A committed file name of the two-phase-commit sink (see file-sink-txn.ts `finalName`). */
export interface CommittedName {
  lineage: string;
  subtask: number;
  checkpoint: number | 'end';
}

const FINAL_RE = /^part-([A-Za-z0-9]+)-(\d+)-(\d+|end)\.(jsonl|csv)$/;

export function parseFinalName(name: string): CommittedName | null {
  const m = FINAL_RE.exec(name);
  if (!m) return null;
  return { lineage: m[1], subtask: Number(m[2]), checkpoint: m[3] === 'end' ? 'end' : Number(m[3]) };
}

function hashOf(e: ManifestEntry): string {
  return createHash('sha256').update(JSON.stringify(e)).digest('hex').slice(0, 16);
}

function line(e: ManifestEntry): string {
  return `${JSON.stringify({ e, h: hashOf(e) })}\n`;
}

export interface SinkManifest {
  job: string;
  lineages: Set<string>;
  /** file name -> the lineage and checkpoint that committed it */
  files: Map<string, { lineage: string; checkpoint: number }>;
  /** Rollbacks, oldest first: checkpoints of `lineage` whose files a restore deleted. */
  undone: Array<{ lineage: string; checkpoints: number[]; before: number }>;
  entries: ManifestEntry[];
}

/** The manifest of `sinkDir`, or null when there is none; throws SinkManifestError when damaged. */
export function readSinkManifest(sinkDir: string): SinkManifest | null {
  const path = join(sinkDir, MANIFEST_FILE);
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  lines.pop(); // '' after a final newline; otherwise a torn append, ignored (see the rules above)
  const entries: ManifestEntry[] = [];
  lines.forEach((l, i) => {
    let parsed: { e?: ManifestEntry; h?: string };
    try {
      parsed = JSON.parse(l) as { e?: ManifestEntry; h?: string };
    } catch {
      throw new SinkManifestError(`${path} line ${i + 1} is damaged (not JSON)`);
    }
    if (!parsed?.e || parsed.h !== hashOf(parsed.e))
      throw new SinkManifestError(`${path} line ${i + 1} is damaged (checksum mismatch)`);
    entries.push(parsed.e);
  });
  const head = entries[0];
  if (!head || head.kind !== 'header' || head.format !== MANIFEST_FORMAT) {
    throw new SinkManifestError(`${path} is not a ${MANIFEST_FORMAT} manifest`);
  }
  const m: SinkManifest = { job: head.job, lineages: new Set(), files: new Map(), undone: [], entries };
  for (const e of entries) {
    if (e.kind === 'run') m.lineages.add(e.lineage);
    else if (e.kind === 'commit') {
      m.lineages.add(e.lineage);
      for (const f of e.files) m.files.set(f, { lineage: e.lineage, checkpoint: e.checkpoint });
    } else if (e.kind === 'undo') m.undone.push({ lineage: e.lineage, checkpoints: e.checkpoints, before: e.before });
  }
  return m;
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* not supported */
  }
}

/** Appends entries durably (creating the manifest with its header for `job` when missing). */
export function appendSinkManifest(sinkDir: string, job: string, entries: ManifestEntry[]): void {
  const path = join(sinkDir, MANIFEST_FILE);
  const fresh = !existsSync(path);
  const text0 = fresh ? line({ kind: 'header', format: MANIFEST_FORMAT, job }) : '';
  let text = text0;
  for (const e of entries) text += line(e);
  if (!fresh) {
    // Never append after a torn line: cut it off (its commit was never sent), so it cannot become a
    // complete but damaged line that would make the whole manifest untrusted.
    const cur = readFileSync(path);
    if (cur.length > 0 && cur[cur.length - 1] !== 10) truncateSync(path, cur.lastIndexOf(10) + 1);
  }
  const fd = openSync(path, 'a');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (fresh) fsyncDir(sinkDir);
}

/** Replaces the manifest with exactly `entries` (header included), atomically. */
export function rewriteSinkManifest(sinkDir: string, entries: ManifestEntry[]): void {
  const path = join(sinkDir, MANIFEST_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, entries.map(line).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(sinkDir);
}
