/**
 * `sink.file`, the two-phase-commit sink of docs/architecture.md:
 * - beginTransaction: a hidden folder per subtask and transaction; records are appended to it;
 * - preCommit (barrier n): flush, fsync, close; the transaction is listed as pending in snapshot n;
 *   the next transaction starts;
 * - commit (notifyCheckpointComplete(m)): every pending transaction with id <= m is renamed to its
 *   final visible name;
 * - abort: delete the folder.
 * Without checkpointing the only transaction is committed at end of input.
 */
import type { FileSinkConfig } from '../graph/types.ts';
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  StreamOperator,
} from '../contracts/operator.ts';
import type { OperatorServices, PendingOutputReporter } from '../contracts/operator-services.ts';
import {
  FileTransaction,
  commitTransaction,
  finalName,
  PENDING_PREFIX,
  type PendingTransaction,
} from './file-sink-txn.ts';
import { csvField } from './formats/csv.ts';
import { changelogJsonLines } from './changelog-table.ts';
import { randomBytes } from 'node:crypto';

export interface FileSinkState {
  pending: PendingTransaction[];
  lineage: string;
}

export class FileSinkOperator implements StreamOperator, PendingOutputReporter {
  private dir = '';
  private subtask = 0;
  private txn: FileTransaction | null = null;
  private txnSeq = 0;
  private pending: PendingTransaction[] = [];
  private csvHeader: string[] | null = null;
  private readonly ext: string;
  /** Unique per operator instance, so no two processes ever name a transaction alike (see file-sink-txn.ts). */
  private readonly instance = randomBytes(4).toString('hex');

  constructor(
    private readonly cfg: FileSinkConfig,
    private readonly services: OperatorServices,
  ) {
    this.ext = cfg.format === 'csv' ? 'csv' : 'jsonl';
  }

  async open(ctx: OperatorContext, _out: OperatorOutput, restored?: { operator?: unknown[] }): Promise<void> {
    this.dir = ctx.resolvePath(this.cfg.path);
    this.subtask = ctx.subtask;
    // Restored pending transactions belong to a completed checkpoint: commit them (idempotent).
    for (const s of restored?.operator ?? []) {
      for (const t of (s as FileSinkState | undefined)?.pending ?? []) commitTransaction(this.dir, t);
    }
    this.begin();
  }

  private begin(): void {
    const dir = `${PENDING_PREFIX}${this.services.lineage}-${this.subtask}-${this.instance}-${this.txnSeq++}`;
    this.txn = new FileTransaction(this.dir, dir);
    this.csvHeader = null;
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const rows = batch.rows;
    if (rows.length === 0) return;
    let text = '';
    if (this.cfg.format === 'changelog-json') {
      text = changelogJsonLines(rows, batch.kinds);
    } else if (this.ext === 'jsonl') {
      for (let i = 0; i < rows.length; i++) text += JSON.stringify(rows[i]) + '\n';
    } else {
      if (this.csvHeader === null) {
        this.csvHeader = Object.keys(rows[0]);
        text += this.csvHeader.map(csvField).join(',') + '\n';
      }
      const h = this.csvHeader;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        let line = '';
        for (let j = 0; j < h.length; j++) line += (j ? ',' : '') + csvField(r[h[j]]);
        text += line + '\n';
      }
    }
    this.txn!.write(text, rows.length);
  }

  async processWatermark(): Promise<void> {}

  async snapshotState(checkpointId: number): Promise<OperatorSnapshot> {
    const t = this.txn;
    // After end of input there is no open transaction; the pending ones are still listed.
    if (t && t.records > 0) {
      t.preCommit();
      this.pending.push({
        checkpointId,
        dir: t.dir,
        final: finalName(this.services.lineage, this.subtask, checkpointId, this.ext),
        records: t.records,
      });
    } else {
      t?.abort();
    }
    if (t) this.begin();
    const state: FileSinkState = { pending: this.pending.map((p) => ({ ...p })), lineage: this.services.lineage };
    return { operator: state };
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    const keep: PendingTransaction[] = [];
    for (const p of this.pending) {
      if (p.checkpointId <= checkpointId) commitTransaction(this.dir, p);
      else keep.push(p);
    }
    this.pending = keep;
  }

  async endInput(): Promise<void> {
    const t = this.txn;
    if (!t) return;
    if (t.records === 0) {
      t.abort();
      this.txn = null;
      return;
    }
    if (this.services.checkpointing) {
      // Sources end with a final barrier, so this only happens if records followed it.
      this.services.log(
        'warn',
        `sink.file subtask ${this.subtask}: ${t.records} records after the final checkpoint, committed at end of input`,
      );
    }
    t.preCommit();
    commitTransaction(this.dir, {
      checkpointId: Infinity,
      dir: t.dir,
      final: finalName(this.services.lineage, this.subtask, 'end', this.ext),
      records: t.records,
    });
    this.txn = null;
  }

  pendingOutput(): { records: number; files: number } {
    let records = this.txn?.records ?? 0;
    let files = this.txn && this.txn.records > 0 ? 1 : 0;
    for (const p of this.pending) {
      records += p.records;
      files++;
    }
    return { records, files };
  }

  async close(): Promise<void> {
    // Pre-committed transactions stay on disk: recovery commits or aborts them.
    if (this.txn) {
      this.txn.abort();
      this.txn = null;
    }
  }
}
