/**
 * `sink.postgres`, two-phase commit per checkpoint and subtask (sink-txn.ts names the transactions):
 * - rows go into an open transaction on the subtask's session (append: batch by batch; upsert: the
 *   checkpoint's changes collapsed per key, last write wins, written at the barrier);
 * - barrier n: PREPARE TRANSACTION, listed as pending in snapshot n (an empty transaction is rolled
 *   back and listed nowhere);
 * - notifyCheckpointComplete(m): COMMIT PREPARED every pending transaction of a checkpoint <= m, on a
 *   second session (the first may be inside the next transaction, and COMMIT PREPARED cannot run in
 *   a transaction block);
 * - restore: the host's recovery hook (sink-recovery.ts) committed what the restored checkpoint
 *   lists and rolled back every other prepared transaction of this node before the task started.
 *
 * Why upsert writes only at the barrier: a prepared transaction keeps its row locks until COMMIT
 * PREPARED, which this subtask runs when notified. Writing checkpoint n+1's rows while n is still
 * prepared could wait on n's locks with the notification queued behind the wait: a deadlock. Notify(n)
 * always reaches the subtask before barrier n+1 (n+1 is triggered after n completed), so at the barrier
 * n is committed; if it is not (checkpoint n failed), the task fails and the restart rolls n back.
 * Without checkpointing the only transaction is committed at end of input.
 *
 * With checkpointing every transaction also writes its ledger row (sink-ledger.ts) and, in upsert
 * mode, the before-images of the keys it changes (sink-undo.ts), so that a restore of an older
 * checkpoint can take the table back exactly (sink-restore.ts).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { PostgresSinkConfig } from '../../graph/types.ts';
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  Row,
  StreamOperator,
} from '../../contracts/operator.ts';
import type { OperatorServices, PendingOutputReporter } from '../../contracts/operator-services.ts';
import { parseTableName, pgConnect } from './connection.ts';
import { commitPrepared, gidOf, gidPrefix, prepareTransaction } from './sink-txn.ts';
import { describeTable, parseKeyColumns, type PgColumn, type PgTableInfo } from './sink-table.ts';
import { columnArrays, deleteSql, insertSql } from './sink-statements.ts';
import { ensureLedger, recordInLedger } from './sink-ledger.ts';
import { ensureUndo, recordBeforeImages } from './sink-undo.ts';

export interface PostgresPendingTransaction {
  checkpointId: number;
  gid: string;
  records: number;
}

export interface PostgresSinkState {
  pending: PostgresPendingTransaction[];
  lineage: string;
}

export interface PostgresSinkOptions {
  jobName: string;
  nodeId: string;
  /** `nodes[i].config`, prefixing every error. */
  at: string;
  /** The columns the job writes, when known before reading data. */
  columns: readonly string[] | null;
}

/** Append rows are sent once this many are buffered (one statement each, see sink-statements.ts). */
const APPEND_FLUSH_ROWS = 5000;

export class PostgresSinkOperator implements StreamOperator, PendingOutputReporter {
  private session: pg.Client | null = null;
  private committer: pg.Client | null = null;
  private table: PgTableInfo | null = null;
  private cols: PgColumn[] | null = null;
  private keyCols: PgColumn[] = [];
  private subtask = 0;
  private readonly prefix: string;
  private readonly instance = randomBytes(4).toString('hex');
  private inTransaction = false;
  private txnRecords = 0;
  private appendBuffer: Row[] = [];
  /** Upsert: key -> the last change of the checkpoint (`null` row: delete). */
  private changes = new Map<string, { row: Row; del: boolean }>();
  private pending: PostgresPendingTransaction[] = [];
  /** The schema of the table, where the ledger lives; null: no ledger (checkpointing off). */
  private ledgerSchema: string | null = null;

  constructor(
    private readonly cfg: PostgresSinkConfig,
    private readonly opts: PostgresSinkOptions,
    private readonly services: OperatorServices,
  ) {
    this.prefix = gidPrefix(opts.jobName, opts.nodeId);
  }

  async open(ctx: OperatorContext, _out: OperatorOutput): Promise<void> {
    this.subtask = ctx.subtask;
    this.session = await pgConnect(this.cfg, this.opts.at);
    // A dropped connection fails the next query; without a listener it would crash the process instead.
    this.session.on('error', () => {});
    // A row lock held elsewhere (another writer, or a prepared transaction a dead process left behind
    // after this attempt's recovery ran) fails the write, and the restart's recovery clears our own;
    // without a timeout the subtask would wait forever.
    await this.session.query(`SET lock_timeout = '60s'`);
    this.table = await describeTable(this.session, this.cfg.table, `${this.opts.at}.table`);
    if (this.cfg.mode === 'upsert') {
      const byName = new Map(this.table.columns.map((c) => [c.name, c]));
      this.keyCols = parseKeyColumns(this.cfg.key ?? '').map((k) => {
        const c = byName.get(k);
        if (!c) throw new Error(`${this.opts.at}.key: table ${this.table!.name} has no column '${k}'`);
        return c;
      });
    }
    if (this.opts.columns) this.cols = this.columnsNamed(this.opts.columns);
    if (this.services.checkpointing) {
      // The host created them before the run (sink-recovery.ts); a harness without a host may not have.
      this.ledgerSchema = parseTableName(this.cfg.table, `${this.opts.at}.table`).schema;
      await ensureLedger(this.session, this.ledgerSchema);
      if (this.cfg.mode === 'upsert') await ensureUndo(this.session, this.ledgerSchema);
    }
  }

  private columnsNamed(names: readonly string[]): PgColumn[] {
    const byName = new Map(this.table!.columns.map((c) => [c.name, c]));
    const cols = names.map((n) => byName.get(n)).filter((c): c is PgColumn => c !== undefined);
    // Key columns are written even when the job names them only in `key`.
    for (const k of this.keyCols) if (!cols.includes(k)) cols.push(k);
    return cols;
  }

  /** Columns undeclared upstream: the table's columns the first row has. */
  private columnsFor(row: Row): PgColumn[] {
    if (!this.cols) this.cols = this.columnsNamed(this.table!.columns.map((c) => c.name).filter((n) => n in row));
    return this.cols;
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    const { rows, kinds } = batch;
    if (rows.length === 0) return;
    this.columnsFor(rows[0]);
    if (this.cfg.mode === 'append') {
      for (const r of rows) this.appendBuffer.push(r);
      if (this.appendBuffer.length >= APPEND_FLUSH_ROWS) await this.flushAppend();
      return;
    }
    const keys = this.keyCols;
    for (let i = 0; i < rows.length; i++) {
      const kind = kinds?.[i] ?? '+I';
      // -U deletes its key: the +U that normally follows (same key, later) replaces that in the
      // collapsed change set, and when a filter upstream dropped the +U (the new row no longer
      // matches) or the update moved the row to another key, the old row must go.
      const row = rows[i];
      const k = keys.length === 1 ? String(row[keys[0].name]) : JSON.stringify(keys.map((c) => row[c.name] ?? null));
      this.changes.delete(k); // keeps the map in arrival order of last changes
      this.changes.set(k, { row, del: kind === '-D' || kind === '-U' });
    }
  }

  private async begin(): Promise<void> {
    if (this.inTransaction) return;
    await this.session!.query('BEGIN');
    this.inTransaction = true;
    this.txnRecords = 0;
  }

  private async run(sql: string, params: unknown[]): Promise<void> {
    try {
      await this.session!.query(sql, params);
    } catch (e) {
      throw new Error(`${this.opts.at}.table: writing to ${this.table!.name} failed: ${(e as Error).message}`);
    }
  }

  private async flushAppend(): Promise<void> {
    const rows = this.appendBuffer;
    if (rows.length === 0) return;
    this.appendBuffer = [];
    await this.begin();
    await this.run(insertSql(this.table!.sql, this.cols!), columnArrays(rows, this.cols!));
    this.txnRecords += rows.length;
  }

  private async flushUpserts(): Promise<void> {
    if (this.changes.size === 0) return;
    const upserts: Row[] = [];
    const deletes: Row[] = [];
    for (const c of this.changes.values()) (c.del ? deletes : upserts).push(c.row);
    this.changes = new Map();
    await this.begin();
    if (this.ledgerSchema !== null) {
      const changed = [...upserts, ...deletes];
      await recordBeforeImages(
        this.session!,
        this.ledgerSchema,
        this.table!.sql,
        this.keyCols,
        columnArrays(changed, this.keyCols),
        changed.map((_, i) => i >= upserts.length),
      );
    }
    // Each key has one change, so the two statements touch different rows and their order is free.
    const key = this.keyCols.map((c) => c.name);
    if (upserts.length > 0)
      await this.run(insertSql(this.table!.sql, this.cols!, key), columnArrays(upserts, this.cols!));
    if (deletes.length > 0)
      await this.run(deleteSql(this.table!.sql, this.keyCols), columnArrays(deletes, this.keyCols));
    this.txnRecords += upserts.length + deletes.length;
  }

  private async flush(): Promise<void> {
    if (this.cfg.mode === 'append') await this.flushAppend();
    else await this.flushUpserts();
  }

  async processWatermark(): Promise<void> {}

  async snapshotState(checkpointId: number): Promise<OperatorSnapshot> {
    if (this.cfg.mode === 'upsert' && this.changes.size > 0) {
      const stale = this.pending.find((p) => p.checkpointId < checkpointId);
      if (stale)
        throw new Error(
          `${this.opts.at}: checkpoint ${stale.checkpointId} never completed and its prepared transaction still holds ` +
            `its rows' locks; restarting to roll it back`,
        );
    }
    await this.flush();
    if (this.inTransaction) {
      this.inTransaction = false;
      if (this.txnRecords > 0) {
        const gid = gidOf(this.prefix, {
          lineage: this.services.lineage,
          subtask: this.subtask,
          checkpointId,
          instance: this.instance,
        });
        await this.recordTransaction(checkpointId, gid);
        await prepareTransaction(this.session!, gid);
        this.pending.push({ checkpointId, gid, records: this.txnRecords });
      } else {
        await this.session!.query('ROLLBACK');
      }
      this.txnRecords = 0;
    }
    const state: PostgresSinkState = { pending: this.pending.map((p) => ({ ...p })), lineage: this.services.lineage };
    return { operator: state };
  }

  /** The open transaction's ledger row, written in it (sink-ledger.ts). */
  private async recordTransaction(checkpoint: number | null, gid: string | null): Promise<void> {
    if (this.ledgerSchema === null || this.txnRecords === 0) return;
    await recordInLedger(this.session!, this.ledgerSchema, {
      job: this.opts.jobName,
      node: this.opts.nodeId,
      target: this.table!.name,
      lineage: this.services.lineage,
      subtask: this.subtask,
      checkpoint,
      gid,
      rows: this.txnRecords,
    });
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    const due = this.pending.filter((p) => p.checkpointId <= checkpointId);
    if (due.length === 0) return;
    if (!this.committer) {
      this.committer = await pgConnect(this.cfg, this.opts.at);
      this.committer.on('error', () => {});
    }
    for (const p of due) await commitPrepared(this.committer, p.gid);
    this.pending = this.pending.filter((p) => p.checkpointId > checkpointId);
  }

  async endInput(): Promise<void> {
    await this.flush();
    if (!this.inTransaction) return;
    if (this.services.checkpointing) {
      // Sources end with a final barrier, so this only happens if records followed it.
      this.services.log(
        'warn',
        `sink.postgres subtask ${this.subtask}: ${this.txnRecords} rows after the final checkpoint, committed at end of input`,
      );
    }
    await this.recordTransaction(null, null);
    await this.session!.query('COMMIT');
    this.inTransaction = false;
    this.txnRecords = 0;
  }

  pendingOutput(): { records: number; files: number } {
    let records = this.txnRecords + this.appendBuffer.length + this.changes.size;
    let files = records > 0 ? 1 : 0;
    for (const p of this.pending) {
      records += p.records;
      files++;
    }
    return { records, files };
  }

  async close(): Promise<void> {
    // Prepared transactions stay in the database: recovery commits or rolls them back.
    const clients = [this.session, this.committer];
    this.session = this.committer = null;
    for (const c of clients) await c?.end().catch(() => {});
  }
}
