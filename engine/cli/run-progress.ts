/**
 * Progress of `weir run` on stderr: records in/out per second, the sinks' watermark, checkpoints
 * and restarts. On a terminal one line is rewritten in place; otherwise a plain line at most every
 * `PLAIN_INTERVAL_MS` plus one line per event that matters (checkpoint failure, restart).
 */
import type { NormalizedJob } from '../graph/types.ts';
import type { RunEvent } from '../runtime/job/api.ts';
import type { LogKind } from '../contracts/run-events.ts';
import type { CliIO } from './output.ts';

const PLAIN_INTERVAL_MS = 1000;

/** How a log line of each kind reads on the terminal (the event's message carries no prefix). */
const LOG_LABEL: Record<LogKind, string> = { notice: '', 'bad-record': 'bad record at ', stderr: 'stderr: ' };

function fmtRate(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(0);
}

function fmtWatermark(w: number | null): string {
  if (w === null) return '-';
  if (w >= Number.MAX_SAFE_INTEGER) return 'end';
  const d = new Date(w);
  return Number.isNaN(d.getTime()) ? String(w) : d.toISOString().replace('.000Z', 'Z');
}

export class ProgressPrinter {
  private readonly sources: Set<string>;
  private readonly sinks: Set<string>;
  private lastPlain = 0;
  private lineShown = false;
  private checkpoints = 0;
  private lastCheckpoint: number | null = null;
  private restarts = 0;
  private readonly startedAt = Date.now();
  private totals = { read: 0, written: 0, late: 0, bad: 0 };
  /** Per source node: records emitted and bad records, from the latest metrics (kept even when quiet). */
  private perSource = new Map<string, { read: number; bad: number }>();
  /** The first bad-record messages (the task process sends at most 10 per source subtask). */
  private readonly badMessages: string[] = [];

  constructor(
    job: NormalizedJob,
    private readonly io: CliIO,
    private readonly opts: { quiet: boolean; tty: boolean },
  ) {
    this.sources = new Set(job.nodes.filter((n) => n.type.startsWith('source.')).map((n) => n.id));
    this.sinks = new Set(job.nodes.filter((n) => n.type.startsWith('sink.')).map((n) => n.id));
  }

  note(text: string): void {
    if (this.opts.quiet) return;
    this.clear();
    this.io.err(`weir run: ${text}`);
  }

  onEvent(e: RunEvent): void {
    // Bad records are always summarised (even with --quiet) and decide the exit code: collect first.
    if (e.type === 'metrics') {
      const per = new Map<string, { read: number; bad: number }>();
      for (const m of e.operators) {
        if (!this.sources.has(m.nodeId)) continue;
        const cur = per.get(m.nodeId) ?? { read: 0, bad: 0 };
        cur.read += m.recordsOut;
        cur.bad += m.badRecords;
        per.set(m.nodeId, cur);
      }
      this.perSource = per;
    } else if (e.type === 'log' && e.kind === 'bad-record' && this.badMessages.length < 20) {
      this.badMessages.push(e.message);
    }
    if (this.opts.quiet) return;
    switch (e.type) {
      case 'metrics': {
        let inRate = 0,
          outRate = 0,
          read = 0,
          written = 0,
          late = 0,
          bad = 0;
        let wm: number | null = null;
        for (const m of e.operators) {
          if (this.sources.has(m.nodeId)) {
            inRate += m.rateOut;
            read += m.recordsOut;
            bad += m.badRecords;
          }
          if (this.sinks.has(m.nodeId)) {
            outRate += m.rateIn;
            written += m.recordsIn;
            if (m.watermark !== null) wm = wm === null ? m.watermark : Math.min(wm, m.watermark);
          }
          late += m.lateRecords;
        }
        this.totals = { read, written, late, bad };
        const line =
          `in ${fmtRate(inRate)}/s (${read}) | out ${fmtRate(outRate)}/s (${written}) | watermark ${fmtWatermark(wm)}` +
          ` | checkpoints ${this.checkpoints}${this.lastCheckpoint !== null ? ` (last #${this.lastCheckpoint})` : ''}` +
          (late ? ` | late ${late}` : '') +
          (bad ? ` | bad ${bad}` : '') +
          (this.restarts ? ` | restarts ${this.restarts}` : '');
        this.show(line);
        break;
      }
      case 'checkpoint':
        if (e.stats.status === 'completed') {
          this.checkpoints++;
          this.lastCheckpoint = e.stats.id;
        } else if (e.stats.status === 'failed')
          this.note(`checkpoint ${e.stats.id} failed: ${e.stats.failureReason ?? 'unknown reason'}`);
        break;
      case 'job.restart':
        this.restarts = e.restarts;
        this.note(
          `restart ${e.restarts} after: ${e.cause}; restoring ${e.restoredCheckpoint === null ? 'from the start' : `checkpoint ${e.restoredCheckpoint}`}`,
        );
        break;
      case 'log':
        if (e.level !== 'info') this.note(`${e.level}: ${LOG_LABEL[e.kind]}${e.message}`);
        break;
      default:
        break;
    }
  }

  private show(line: string): void {
    if (this.opts.tty) {
      process.stderr.write(`\r\x1b[2K${line}`);
      this.lineShown = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastPlain < PLAIN_INTERVAL_MS) return;
    this.lastPlain = now;
    this.io.err(line);
  }

  private clear(): void {
    if (this.lineShown) {
      process.stderr.write('\r\x1b[2K');
      this.lineShown = false;
    }
  }

  /** Sources that read records and every one of them was bad (`weir run` then exits non-zero). */
  allBadSources(): Array<{ nodeId: string; bad: number }> {
    return [...this.perSource]
      .filter(([, c]) => c.bad > 0 && c.read === 0)
      .map(([nodeId, c]) => ({ nodeId, bad: c.bad }));
  }

  /** One closing line with totals and average rates (a short job never shows a second sample). */
  end(): void {
    this.clear();
    const bad = [...this.perSource.values()].reduce((n, c) => n + c.bad, 0);
    if (this.opts.quiet) {
      // --quiet drops progress, never the news that input was skipped.
      if (bad > 0) {
        this.io.err(
          `weir run: ${bad} bad record${bad === 1 ? '' : 's'}` +
            (this.badMessages.length ? `; first: ${this.badMessages.slice(0, 5).join('; ')}` : ''),
        );
      }
      return;
    }
    const secs = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
    const t = this.totals;
    this.io.err(
      `read ${t.read} records (${fmtRate(t.read / secs)}/s), wrote ${t.written}, ${this.checkpoints} checkpoints` +
        (t.late ? `, ${t.late} late` : '') +
        (t.bad ? `, ${t.bad} bad` : '') +
        (this.restarts ? `, ${this.restarts} restarts` : '') +
        ` in ${secs.toFixed(1)} s`,
    );
  }
}
