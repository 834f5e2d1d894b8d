/**
 * `source.postgres` with `mode: "cdc"`: the table's snapshot, then its changes from a logical
 * replication slot (pgoutput), as a changelog: snapshot rows +I, inserts +I, updates -U/+U (the
 * old row needs REPLICA IDENTITY FULL, which is required, not set behind the user's back), deletes
 * -D. Subtask 0 reads (a slot is one ordered stream); other subtasks end at once.
 *
 * Exactly once: the position (cdc-position.ts) names what was emitted; the slot is confirmed only
 * from `notifyCheckpointComplete`, never past the completed checkpoint's `safe` LSN, so the server
 * keeps every change a restore may need. A restore whose slot was confirmed past its position (an
 * older checkpoint) is refused: those changes are gone.
 *
 * The slot outlives the run (a stopped job resumes from its savepoint): a notice names it and how
 * to drop it when the job is retired. A fresh start (no checkpoint) drops and recreates it.
 */
import type pg from 'pg';
import type { JobNodeOf } from '../../graph/types.ts';
import type { Row, RowKind } from '../../contracts/operator.ts';
import type { SourceContext, SourceReader, SourceReadResult } from '../../contracts/source.ts';
import { PgConfigError, parseTableName, pgClientConfig, pgConnect, quoteIdent } from './connection.ts';
import { outputColumns, readTableInfo, type TableInfo } from './table-info.ts';
import { SnapshotPager } from './snapshot-pager.ts';
import { rowEventTime } from './row-times.ts';
import { defaultSlotName, publicationName } from './names.ts';
import { ensurePublication, openSnapshotTxn, slotState, waitSlotInactive } from './cdc-setup.ts';
import { ReplicationStream, type PgoutputMessage } from './replication-stream.ts';
import { type CdcPosition, inResumedSnapshot, supportsResume } from './cdc-position.ts';
import { formatLsn, parseLsn } from './lsn.ts';
import { pgValue } from './pg-values.ts';
import { postgresSource } from '../../nodes/source-postgres/definition.ts';

const STREAM_POLL_MS = 20;

export class PostgresCdcReader implements SourceReader {
  private readonly where: string;
  private readonly slot: string;
  private pos: CdcPosition | null;
  private client: pg.Client | null = null;
  private info: TableInfo | null = null;
  private pager: SnapshotPager | null = null;
  private stream: ReplicationStream | null = null;
  /** Messages taken from the stream and not yet processed (a read stops at `max` rows). */
  private pending: PgoutputMessage[] = [];
  /** Restored position: changes up to it are skipped while replaying. */
  private skipTx: bigint | null = null;
  private skipIndex = 0;
  /** The current transaction's commit LSN, or null between transactions. */
  private tx: bigint | null = null;
  /** Changes of `tx` seen so far (emitted or skipped). */
  private txIndex = 0;
  private types = new Map<string, number>();
  /** The columns of every output row: the declared `columns`, else the table's at open. */
  private output: string[] = [];
  /** The table's column names as the stream last described them (a change is reported once). */
  private streamColumns: string = '';
  /** A connection lost between reads (the server stopped): the next read fails with it. */
  private failure: Error | null = null;

  private watch(client: pg.Client): pg.Client {
    client.on('error', (e: Error) => (this.failure ??= e));
    return client;
  }

  constructor(
    private readonly node: JobNodeOf<typeof postgresSource.type>,
    private readonly ctx: SourceContext,
    restored: unknown[],
  ) {
    this.where = `${node.id}.config`;
    this.slot = node.config.slotName ?? defaultSlotName(ctx.jobName ?? 'job', node.id);
    this.pos = (restored.find((r) => r !== undefined && r !== null) as CdcPosition | undefined) ?? null;
    if (this.pos?.tx) {
      this.skipTx = parseLsn(this.pos.tx);
      this.skipIndex = this.pos.index;
    }
  }

  position(): unknown {
    if (this.ctx.subtask !== 0 || !this.pos) return this.pos ?? undefined;
    return { ...this.pos, lastKey: this.pager ? this.pager.lastKey : this.pos.lastKey } satisfies CdcPosition;
  }

  async read(max: number): Promise<SourceReadResult> {
    if (this.ctx.subtask !== 0) return { rows: [], ts: [], end: true };
    if (this.failure) throw this.failure;
    if (!this.client) await this.open();
    if (this.pos!.phase === 'snapshot') return this.readSnapshot(max);
    return this.readStream(max);
  }

  private async open(): Promise<void> {
    const cfg = this.node.config;
    const client = this.watch(await pgConnect(cfg, this.where));
    this.client = client;
    const info = await readTableInfo(client, parseTableName(cfg.table, `${this.where}.table`), `${this.where}.table`);
    this.info = info;
    this.types = new Map(info.columns.map((c) => [c.name, c.typeOid]));
    this.output = outputColumns(cfg.columns, info, `${this.where}.columns`);
    this.streamColumns = info.columns.map((c) => c.name).join(', ');
    if (info.replicaIdentity !== 'full')
      throw new PgConfigError(
        `${this.where}.table`,
        `table ${info.schema}.${info.table} has REPLICA IDENTITY ${info.replicaIdentity.toUpperCase()}; CDC needs the old row of every update and delete: run ALTER TABLE ${info.sql} REPLICA IDENTITY FULL`,
      );
    await ensurePublication(client, publicationName(this.slot), info);
    const state = await slotState(client, this.slot);
    if (this.pos === null) return this.freshStart(state.exists);
    if (!state.exists)
      throw new PgConfigError(
        this.where,
        `replication slot ${this.slot} no longer exists, so the changes after the checkpoint are gone: start the job without restoring`,
      );
    if (state.confirmedFlush !== null && parseLsn(state.confirmedFlush) > parseLsn(this.pos.safe))
      throw new PgConfigError(
        this.where,
        `replication slot ${this.slot} was confirmed up to ${state.confirmedFlush}, past this checkpoint's ${this.pos.safe} (an older checkpoint?): the changes in between are gone; restore the latest checkpoint or start without restoring`,
      );
    await waitSlotInactive(client, this.slot, this.where);
    if (this.pos.phase === 'snapshot') await this.resumeSnapshot();
    else await this.startStream();
  }

  /** No checkpoint: whatever the slot holds belongs to a run nobody can restore; start over. */
  private async freshStart(slotExists: boolean): Promise<void> {
    const client = this.client!;
    if (slotExists) {
      await waitSlotInactive(client, this.slot, this.where);
      await client.query('SELECT pg_drop_replication_slot($1)', [this.slot]);
    }
    const txn = await openSnapshotTxn(this.node.config, this.where, this.slot, false);
    await client.end();
    this.client = this.watch(txn.client);
    this.pager = new SnapshotPager(this.info!, null);
    this.pos = {
      phase: 'snapshot',
      slot: this.slot,
      start: txn.lsn,
      lastKey: null,
      tx: null,
      index: 0,
      safe: txn.lsn,
      resumed: [],
    };
    this.ctx.notice?.(
      `source.postgres '${this.node.id}': replication slot ${this.slot} created at ${txn.lsn}; it keeps WAL until dropped. ` +
        `When the job is retired: SELECT pg_drop_replication_slot('${this.slot}'); DROP PUBLICATION ${quoteIdent(publicationName(this.slot))};`,
    );
  }

  /** Restored mid-snapshot: the first snapshot is gone; the rest comes from a newer one. */
  private async resumeSnapshot(): Promise<void> {
    const pos = this.pos!;
    const info = this.info!;
    const keyTypes = info.key.map((k) => info.columns.find((c) => c.name === k)!.pgType);
    if (pos.lastKey !== null && !supportsResume(keyTypes))
      throw new PgConfigError(
        this.where,
        `the checkpoint was taken during the initial snapshot, which resumes only for integer primary keys (${info.key.join(', ')}: ${keyTypes.join(', ')}); start the job without restoring`,
      );
    const txn = await openSnapshotTxn(this.node.config, this.where, `${this.slot.slice(0, 55)}_resume`, true);
    await this.client!.end();
    this.client = this.watch(txn.client);
    this.pager = new SnapshotPager(info, pos.lastKey);
    // Keys above lastKey (all keys when none was read: a key below every key) come from the new view.
    const key = pos.lastKey ?? info.key.map(() => String(-(2n ** 63n)));
    this.pos = { ...pos, resumed: [...pos.resumed, { key, lsn: txn.lsn }] };
  }

  private async readSnapshot(max: number): Promise<SourceReadResult> {
    const page = await this.pager!.next(this.client!, max);
    const rows: Row[] = [];
    const ts: number[] = [];
    for (const row of page) this.push(rows, ts, null, row, '+I');
    if (this.pager!.done) {
      await this.client!.query('COMMIT');
      this.pos = { ...this.pos!, phase: 'stream', lastKey: this.pager!.lastKey };
      this.pager = null;
      await this.startStream();
    }
    return { rows, ts, end: false };
  }

  private async startStream(): Promise<void> {
    this.stream = new ReplicationStream(parseLsn(this.pos!.safe));
    await this.stream.start(pgClientConfig(this.node.config, this.where), this.slot, publicationName(this.slot));
  }

  private async readStream(max: number): Promise<SourceReadResult> {
    const rows: Row[] = [];
    const ts: number[] = [];
    const kinds: RowKind[] = [];
    if (this.pending.length === 0) this.pending = this.stream!.take(max);
    let i = 0;
    // An update is two rows: stop while both still fit (a read of max 1 may return a -U/+U pair).
    for (; i < this.pending.length && (rows.length === 0 || rows.length + 2 <= max); i++)
      this.apply(this.pending[i], rows, ts, kinds);
    this.pending = this.pending.slice(i);
    if (rows.length === 0) return { rows, ts, end: false, waitMs: this.pending.length ? 0 : STREAM_POLL_MS };
    return { rows, ts, end: false, kinds };
  }

  private apply(m: PgoutputMessage, rows: Row[], ts: number[], kinds: RowKind[]): void {
    const pos = this.pos!;
    switch (m.tag) {
      case 'begin':
        this.tx = parseLsn(m.commitLsn!);
        this.txIndex = 0;
        return;
      case 'commit': {
        const end = parseLsn(m.commitEndLsn!);
        if (end > parseLsn(pos.safe)) pos.safe = formatLsn(end);
        this.tx = null;
        return;
      }
      case 'insert':
      case 'update':
      case 'delete': {
        // A publication shared with other tables (an existing one of this name) streams theirs too.
        const info = this.info!;
        if (m.relation.schema !== info.schema || m.relation.name !== info.table) return;
        const tx = this.tx!;
        const index = this.txIndex++;
        // Replaying after a restore: what the checkpoint's position covers was emitted already
        // (the position stays the restored one, which is ahead).
        if (this.skipTx !== null && (tx < this.skipTx || (tx === this.skipTx && index < this.skipIndex))) return;
        pos.tx = formatLsn(tx);
        pos.index = index + 1;
        const before = m.tag === 'insert' ? null : m.old;
        const after = m.tag === 'delete' ? null : m.new;
        if (m.tag !== 'insert' && before === null)
          throw new PgConfigError(
            `${this.where}.table`,
            `a ${m.tag} came without the old row: is REPLICA IDENTITY still FULL?`,
          );
        if (before) this.push(rows, ts, kinds, this.row(before), m.tag === 'update' ? '-U' : '-D', tx);
        if (after) this.push(rows, ts, kinds, this.row(after), m.tag === 'update' ? '+U' : '+I', tx);
        return;
      }
      case 'truncate':
        this.ctx.notice?.(
          `source.postgres '${this.node.id}': TRUNCATE of ${this.node.config.table} is not a changelog; ignored (as Flink's postgres-cdc)`,
        );
        return;
      case 'relation':
        this.noticeSchemaChange(m);
        return;
      default:
        return; // type, origin, message: nothing to emit
    }
  }

  private row(tuple: Record<string, unknown>): Row {
    const row: Row = {};
    for (const [name, oid] of this.types) row[name] = pgValue(oid, tuple[name]);
    return row;
  }

  /**
   * pgoutput describes a table again after its schema changed (ALTER TABLE ... ADD/DROP COLUMN).
   * Output rows keep their columns (`push` projects them); the change is reported, once.
   */
  private noticeSchemaChange(m: Extract<PgoutputMessage, { tag: 'relation' }>): void {
    const info = this.info!;
    if (m.schema !== info.schema || m.name !== info.table) return;
    const names = m.columns.map((c) => c.name);
    const now = names.join(', ');
    if (now === this.streamColumns) return;
    const before = this.streamColumns.split(', ');
    this.streamColumns = now;
    const added = names.filter((n) => !before.includes(n));
    const dropped = before.filter((n) => !names.includes(n));
    const missing = this.output.filter((n) => !names.includes(n));
    const change = [
      added.length ? `column(s) added: ${added.join(', ')}` : '',
      dropped.length ? `column(s) dropped: ${dropped.join(', ')}` : '',
    ].filter(Boolean);
    this.ctx.notice?.(
      `source.postgres '${this.node.id}': the schema of ${info.schema}.${info.table} changed (${change.join('; ') || 'columns reordered'}); ` +
        `output rows keep their columns (${this.output.join(', ')})` +
        (missing.length ? `; ${missing.join(', ')} now come as NULL` : ''),
    );
  }

  private push(rows: Row[], ts: number[], kinds: RowKind[] | null, row: Row, kind: RowKind, commit?: bigint): void {
    if (commit !== undefined && this.pos!.resumed.length) {
      const key = this.info!.key.map((k) => row[k]);
      if (inResumedSnapshot(this.pos!.resumed, key, commit)) return;
    }
    const t = rowEventTime(row, this.node.config.eventTime?.field);
    if (typeof t === 'string') {
      this.ctx.badRecord(
        `${this.node.config.table} ${kind} key ${JSON.stringify(this.info!.key.map((k) => row[k]))}`,
        t,
      );
      return;
    }
    rows.push(this.project(row));
    ts.push(t);
    kinds?.push(kind);
  }

  /** The row with exactly the output columns, in their order. */
  private project(row: Row): Row {
    const out: Row = {};
    for (const name of this.output) out[name] = row[name] ?? null;
    return out;
  }

  async notifyCheckpointComplete(_checkpointId: number, position: unknown): Promise<void> {
    const p = position as CdcPosition | undefined;
    if (this.stream && p?.phase === 'stream') this.stream.confirm(parseLsn(p.safe));
  }

  async close(): Promise<void> {
    await this.stream?.close();
    this.stream = null;
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
