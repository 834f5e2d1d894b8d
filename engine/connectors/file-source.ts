/**
 * `source.file`: JSON Lines or CSV with a header. A folder path reads every (non-hidden) file in
 * it; a big bounded JSON Lines file is cut into byte-range splits (file-splits.ts), splits assigned
 * round-robin to subtasks. The position is a byte offset and line number per split, so a restored
 * source continues at exactly the record after Sn, at any parallelism. A line
 * that is not valid UTF-8 is a bad record; a byte order mark is skipped (line-bytes.ts).
 * Bounded by default; `follow: true` tails the files (and picks up new files in a folder), through
 * truncation and replacement like `tail -F` (file-rotation.ts).
 * JSON Lines rows carry only the columns the job reads when the runtime names them (`columns`):
 * engine/connectors/jsonl-projection.ts decodes those from the bytes, other lines take JSON.parse
 * (file-source-rows.ts).
 */
import { openSync, readSync, closeSync, statSync, fstatSync } from 'node:fs';
import { basename } from 'node:path';
import type { FileSourceConfig } from '../graph/types.ts';
import type { Row } from '../contracts/operator.ts';
import {
  fileOfKey,
  fingerprint,
  inputMismatch,
  positionKey,
  restoredPositions,
  type FilePosition,
  type FileSourcePositions,
} from './file-positions.ts';
import { BadRecordError, type SourceContext, type SourceReader, type SourceReadResult } from '../contracts/source.ts';
import { eventTimeOf, jsonLineRow } from './file-source-rows.ts';
import { parseCsvLine } from './formats/csv.ts';
import { csvRow, readCsvHeader } from './file-source-csv.ts';
import { JsonlProjector } from './jsonl-projection.ts';
import { detectRotation } from './file-rotation.ts';
import { alignedStart, fileSplits, linesBeforeSplit, listSourceFiles, type FileSplit } from './file-splits.ts';
import { BOM_BYTES, INVALID_UTF8, isUtf8Line, startsWithBom, validWholeLines } from './line-bytes.ts';

const CHUNK = 1 << 20;
/** A longer line is a bad record, skipped without being buffered: memory stays bounded on any input. */
export const MAX_LINE_BYTES = 16 << 20;
const FOLLOW_POLL_MS = 100;

interface FilePos {
  offset: number;
  /** Lines read in the split (in the file, for a split starting at 0). */
  line: number;
}

interface Split extends FileSplit {
  pos: FilePos;
  /** Lines in the file before the split's first line, counted when a message needs a line number. */
  lineBase?: number;
}

export class FileSourceReader implements SourceReader {
  private readonly root: string;
  private splits: Split[] = [];
  /** Positions from the checkpoint by key; splits not in it start at their start. */
  private restored: Map<string, FilePosition> | null = null;
  private fileIndex = 0;
  private fd: number | null = null;
  private buf = Buffer.alloc(0);
  /** Byte offset in the file of buf[0]. */
  private bufOffset = 0;
  /** Bytes of buf, from its start, known to be valid UTF-8 whole lines (line-bytes.ts). */
  private bufValid = 0;
  private eof = false;
  private header: string[] | null = null;
  private readonly field: string | undefined;
  /** Decodes only the read columns of a JSON line; null: whole rows (CSV, or every column needed). */
  private readonly projector: JsonlProjector | null;
  /** Whole rows for now, e.g. while an edge sample shows them in the live panel. */
  private allColumns = false;

  constructor(
    private readonly cfg: FileSourceConfig,
    private readonly ctx: SourceContext,
    restored?: unknown[],
    /** The columns anything downstream reads (engine/graph/read-columns.ts); null or absent = all. */
    columns?: readonly string[] | null,
    /** Where big files are cut (file-splits.ts; tests cut small files). */
    private readonly splitBytes?: number,
  ) {
    this.root = ctx.resolvePath(cfg.path);
    this.field = cfg.eventTime?.field;
    this.projector = cfg.format === 'jsonl' && columns ? JsonlProjector.for(columns) : null;
    this.restore(restored ?? []);
    this.refreshFiles();
  }

  /** `following`: a path missing for now (rotated away) keeps the files known so far. */
  private refreshFiles(following = false): void {
    if (following && !statSync(this.root, { throwIfNoEntry: false })) return;
    const known = new Set(this.splits.map((s) => s.key));
    const splittable = !this.cfg.follow && this.cfg.format === 'jsonl';
    let index = 0;
    for (const f of listSourceFiles(this.root)) {
      const key = positionKey(this.root, f);
      for (const split of fileSplits(f, key, splittable, this.restored, this.splitBytes)) {
        if (index++ % this.ctx.parallelism !== this.ctx.subtask || known.has(split.key)) continue;
        const p = this.restored?.get(split.key);
        this.splits.push({ ...split, pos: p ? { offset: p.offset, line: p.line } : { offset: split.start, line: 0 } });
      }
    }
  }

  /** The line number in its file of the split's last line read (counting the lines before a split once, for messages only). */
  private lineNo(split: Split): number {
    if (split.start === 0) return split.pos.line;
    split.lineBase ??= linesBeforeSplit(split.file, split.start);
    return split.lineBase + split.pos.line;
  }

  showAllColumns(on: boolean): void {
    this.allColumns = on;
  }

  /** The last fingerprint taken per file: a file not read since is not read again for it. */
  private readonly fingerprints = new Map<string, { offset: number; print: ReturnType<typeof fingerprint> }>();

  position(): FileSourcePositions {
    const inputs: Record<string, FilePosition> = {};
    // A copy: the checkpoint must keep Sn while the reader moves on.
    for (const { key, file, pos: p } of this.splits) {
      let fp = this.fingerprints.get(key);
      if (fp?.offset !== p.offset)
        this.fingerprints.set(key, (fp = { offset: p.offset, print: fingerprint(file, p.offset) }));
      inputs[key] = { offset: p.offset, line: p.line, ...fp.print };
    }
    return { inputs };
  }

  /**
   * Positions are a union over all restored subtasks (so a restore may change parallelism), keyed
   * by file name with a fingerprint (file-positions.ts), never by absolute path: a moved job folder
   * resumes exactly. A bounded source's input was checked before the run started (another one is
   * refused); a `follow` source reads a replaced file from its start, said by the subtask reading it.
   */
  private restore(restored: readonly unknown[]): void {
    if (restored.length === 0) return;
    const inFolder = statSync(this.root, { throwIfNoEntry: false })?.isDirectory() ?? false;
    this.restored = new Map();
    for (const [key, p] of restoredPositions(restored, inFolder)) {
      const file = fileOfKey(this.root, inFolder, key);
      const changed = this.cfg.follow ? inputMismatch(file, p) : null;
      if (changed === null) this.restored.set(key, p);
      else if (Math.max(0, this.listed().indexOf(file)) % this.ctx.parallelism === this.ctx.subtask)
        this.ctx.notice?.(`source.file: ${changed}; reading it from its start`);
    }
  }

  private listed(): string[] {
    return statSync(this.root, { throwIfNoEntry: false }) ? listSourceFiles(this.root) : [];
  }

  private openCurrent(): boolean {
    if (this.fileIndex >= this.splits.length) return false;
    const split = this.splits[this.fileIndex];
    const f = split.file;
    const pos = split.pos;
    this.fd = openSync(f, 'r');
    // Not started yet: the split's first line starts after the line the split before it ends with.
    if (split.start > 0 && pos.offset === split.start) pos.offset = alignedStart(this.fd, split.start);
    this.buf = Buffer.alloc(0);
    this.bufOffset = pos.offset;
    this.bufValid = 0;
    this.eof = false;
    this.header = null;
    if (this.cfg.follow && pos.offset > fstatSync(this.fd).size) {
      // Restored past the end of a followed file: it was rotated while the job was down.
      this.ctx.notice?.(
        `source.file ${basename(f)}: shorter than the restored position (${pos.offset} bytes); reading it from its start`,
      );
      split.pos = { offset: 0, line: 0 };
      this.bufOffset = 0;
      return true;
    }
    if (this.cfg.format === 'csv' && pos.offset > 0) this.header = readCsvHeader(this.fd);
    return true;
  }

  private fill(): void {
    const chunk = Buffer.allocUnsafe(CHUNK);
    const n = readSync(this.fd!, chunk, 0, CHUNK, this.bufOffset + this.buf.length);
    if (n === 0) {
      this.eof = true;
      return;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    this.bufValid = validWholeLines(this.buf);
  }

  /** Dead letters since the last `read` returned (`onBadRecord: 'dead-letter'`). */
  private deadLetters: Row[] = [];

  async read(max: number): Promise<SourceReadResult> {
    const r = this.readLines(max);
    if (this.deadLetters.length === 0) return r;
    const bad = this.deadLetters;
    this.deadLetters = [];
    return { ...r, bad };
  }

  private readLines(max: number): SourceReadResult {
    const rows: Row[] = [];
    const ts: number[] = [];
    // Dead letters count toward the batch, so an input of only bad lines is read batch by batch too.
    while (rows.length + this.deadLetters.length < max) {
      if (this.fd === null && !this.openCurrent()) {
        if (this.cfg.follow) {
          this.refreshFiles(true);
          if (this.fileIndex < this.splits.length) continue;
          return { rows, ts, end: false, waitMs: rows.length ? undefined : FOLLOW_POLL_MS };
        }
        return { rows, ts, end: true };
      }
      const split = this.splits[this.fileIndex];
      const f = split.file;
      const pos = split.pos;
      // The next line starts in the next split: this one is done.
      if (pos.offset >= split.end) {
        this.nextFile();
        continue;
      }
      let start = pos.offset - this.bufOffset;
      // At the very start of a file (also one that was empty when opened, or rotated): a byte order mark is no text.
      if (pos.offset === 0 && startsWithBom(this.buf, start)) {
        pos.offset = BOM_BYTES;
        continue;
      }
      let nl = this.buf.indexOf(10, start);
      if (nl < 0) {
        if (!this.eof && this.buf.length - start > MAX_LINE_BYTES) {
          this.skipLongLine(f, pos, start);
          continue;
        }
        if (!this.eof) {
          // Drop consumed bytes before reading more.
          this.buf = this.buf.subarray(start);
          this.bufOffset = pos.offset;
          this.bufValid = 0;
          this.fill();
          if (!this.eof) continue;
          start = 0;
          nl = this.buf.indexOf(10, start);
        }
        if (nl < 0) {
          const rest = this.buf.length - start;
          if (this.cfg.follow) {
            // A partial last line may still be being written: wait for its newline.
            this.eof = false;
            if (rows.length) return { rows, ts, end: false };
            if (this.followRotation(f, pos, start, rows, ts)) continue;
            if (this.fileIndex + 1 < this.splits.length && rest === 0) {
              this.nextFile();
              continue;
            }
            this.refreshFiles(true);
            if (this.fileIndex + 1 < this.splits.length && rest === 0) {
              this.nextFile();
              continue;
            }
            return { rows, ts, end: false, waitMs: FOLLOW_POLL_MS };
          }
          if (rest > 0 && !this.badUtf8(f, pos, start, this.buf.length))
            this.consumeLine(f, pos, this.buf.toString('utf8', start, this.buf.length), rest, rows, ts);
          this.nextFile();
          continue;
        }
      }
      if (nl >= this.bufValid && this.badUtf8(f, pos, start, nl)) continue;
      if (this.projector !== null && !this.allColumns && this.consumeFast(f, pos, start, nl, rows, ts)) continue;
      const text = this.buf.toString('utf8', start, nl);
      this.consumeLine(f, pos, text, nl + 1 - start, rows, ts);
    }
    return { rows, ts, end: false };
  }

  /** Reads past the rest of an over-long line in chunks (never buffering it) and reports it as bad. */
  private skipLongLine(file: string, pos: FilePos, start: number): void {
    const head = this.buf.toString('utf8', start, start + 256);
    let off = this.bufOffset + this.buf.length;
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(this.fd!, chunk, 0, CHUNK, off);
      if (n === 0) break; // the line ends at the end of the file
      const i = chunk.subarray(0, n).indexOf(10);
      if (i >= 0) {
        off += i + 1;
        break;
      }
      off += n;
    }
    const bytes = off - pos.offset;
    pos.line++;
    pos.offset = off;
    this.buf = Buffer.alloc(0);
    this.bufOffset = off;
    this.bad(file, `${head}...`, `line of ${bytes} bytes is longer than ${MAX_LINE_BYTES} bytes`);
  }

  /** At the end of a followed file: reopens it from its start when it was rotated (file-rotation.ts). */
  private followRotation(file: string, pos: FilePos, start: number, rows: Row[], ts: number[]): boolean {
    const rotation = detectRotation(file, this.fd!, this.bufOffset + this.buf.length);
    if (rotation === null) return false;
    const rest = this.buf.length - start;
    // A replaced file is complete: its last line without a newline will never get one.
    if (rotation.kind === 'replaced' && rest > 0 && !this.badUtf8(file, pos, start, this.buf.length))
      this.consumeLine(file, pos, this.buf.toString('utf8', start, this.buf.length), rest, rows, ts);
    this.ctx.notice?.(`source.file ${basename(file)}: ${rotation.message}`);
    closeSync(this.fd!);
    this.fd = null;
    this.splits[this.fileIndex].pos = { offset: 0, line: 0 };
    return true;
  }

  /** Consumes the line [start, end) as a bad record when it is not valid UTF-8; false when it is. */
  private badUtf8(file: string, pos: FilePos, start: number, end: number): boolean {
    if (isUtf8Line(this.buf, start, end)) return false;
    const next = end < this.buf.length && this.buf[end] === 10 ? end + 1 : end;
    pos.offset += next - start;
    pos.line++;
    const text = this.buf.toString('utf8', start, end).replace(/\r$/, '');
    this.bad(file, text, INVALID_UTF8);
    // A CSV header is still the header (its bad names are reported, and shown with U+FFFD): the
    // data lines must not shift up into its place.
    if (this.cfg.format === 'csv' && this.header === null) this.header = parseCsvLine(text) ?? [];
    return true;
  }

  private nextFile(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.fileIndex++;
  }

  /** The line [start, nl) through the projector; false (nothing consumed) when it takes the slow path. */
  private consumeFast(file: string, pos: FilePos, start: number, nl: number, rows: Row[], ts: number[]): boolean {
    const end = nl > start && this.buf[nl - 1] === 13 ? nl - 1 : nl;
    const row = this.projector!.decode(this.buf, start, end);
    if (row === null) return false;
    pos.offset += nl + 1 - start;
    pos.line++;
    const t = eventTimeOf(this.field, row);
    if (typeof t === 'string') {
      const text = this.buf.toString('utf8', start, end);
      this.bad(file, text, t);
      return true;
    }
    rows.push(row);
    ts.push(t);
    return true;
  }

  private consumeLine(file: string, pos: FilePos, raw: string, bytes: number, rows: Row[], ts: number[]): void {
    pos.offset += bytes;
    pos.line++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    let row: Row | null;
    if (this.cfg.format === 'csv') {
      if (this.header === null) {
        this.header = parseCsvLine(text) ?? [];
        return;
      }
      row = csvRow(text, this.header, this.cfg.columns);
      if (row === null) return this.bad(file, text, `expected ${this.header.length} CSV fields`);
    } else {
      const parsed = jsonLineRow(text);
      if (typeof parsed === 'string') return this.bad(file, text, parsed);
      row = this.projector !== null && !this.allColumns ? this.projector.project(parsed) : parsed;
    }
    const t = eventTimeOf(this.field, row);
    if (typeof t === 'string') return this.bad(file, text, t);
    rows.push(row);
    ts.push(t);
  }

  /** The line just consumed (`text`, of the current split) as a bad record. */
  private bad(file: string, text: string, message: string): void {
    const line = this.lineNo(this.splits[this.fileIndex]);
    const where = `${basename(file)}:${line}`;
    if (this.cfg.onBadRecord === 'fail') throw new BadRecordError(`source.file ${where}: ${message}`);
    this.ctx.badRecord(where, message);
    if (this.cfg.onBadRecord === 'dead-letter') this.deadLetters.push({ file, line, reason: message, text });
  }

  async close(): Promise<void> {
    if (this.fd !== null) {
      try {
        fstatSync(this.fd);
        closeSync(this.fd);
      } catch {
        /* already closed */
      }
    }
    this.fd = null;
  }
}
