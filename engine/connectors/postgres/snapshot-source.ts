/**
 * `source.postgres` with `mode: "snapshot"`: the table read once in primary-key order, bounded.
 * The position is the last key read, so a restore continues with the next key. Each page is its
 * own query: rows changed while the read runs may or may not be seen (as Flink's JDBC scan); use
 * `cdc` for a consistent view. Subtask 0 reads the table; other subtasks end at once (one ordered
 * split: parallelism buys nothing for a keyset scan of one table). Rows carry the declared
 * `columns` only, as CDC's do; event time is read before that, so its column need not be declared.
 */
import type pg from 'pg';
import type { PostgresSourceConfig } from '../../graph/types.ts';
import type { Row } from '../../contracts/operator.ts';
import type { SourceContext, SourceReader, SourceReadResult } from '../../contracts/source.ts';
import { parseTableName, pgConnect } from './connection.ts';
import { outputColumns, readTableInfo } from './table-info.ts';
import { SnapshotPager } from './snapshot-pager.ts';
import { rowEventTime } from './row-times.ts';

export interface SnapshotPosition {
  phase: 'snapshot';
  lastKey: string[] | null;
  done: boolean;
}

export class PostgresSnapshotReader implements SourceReader {
  private client: pg.Client | null = null;
  private pager: SnapshotPager | null = null;
  /** The columns of every output row: the declared `columns`, else the table's at open (as CDC). */
  private output: string[] = [];
  private readonly restored: SnapshotPosition | null;

  constructor(
    private readonly cfg: PostgresSourceConfig,
    private readonly ctx: SourceContext,
    /** `nodes[i].config`, prefix of every error. */
    private readonly where: string,
    restored: unknown[],
  ) {
    this.restored = (restored.find((r) => r !== undefined && r !== null) as SnapshotPosition | undefined) ?? null;
  }

  position(): unknown {
    if (this.ctx.subtask !== 0) return undefined;
    if (!this.pager) return this.restored ?? { phase: 'snapshot', lastKey: null, done: false };
    return { phase: 'snapshot', lastKey: this.pager.lastKey, done: this.pager.done } satisfies SnapshotPosition;
  }

  async read(max: number): Promise<SourceReadResult> {
    if (this.ctx.subtask !== 0 || this.restored?.done) return { rows: [], ts: [], end: true };
    if (!this.pager) {
      this.client = await pgConnect(this.cfg, this.where);
      // A connection lost between reads surfaces in the next query, not as an uncaught event.
      this.client.on('error', () => undefined);
      const info = await readTableInfo(
        this.client,
        parseTableName(this.cfg.table, `${this.where}.table`),
        `${this.where}.table`,
      );
      this.output = outputColumns(this.cfg.columns, info, `${this.where}.columns`);
      this.pager = new SnapshotPager(info, this.restored?.lastKey ?? null);
    }
    const page = await this.pager.next(this.client!, max);
    const rows: Row[] = [];
    const ts: number[] = [];
    for (const row of page) {
      const t = rowEventTime(row, this.cfg.eventTime?.field);
      if (typeof t === 'string') {
        this.ctx.badRecord(`${this.cfg.table} key ${JSON.stringify(this.pager.lastKey)}`, t);
        continue;
      }
      const out: Row = {};
      for (const c of this.output) out[c] = row[c];
      rows.push(out);
      ts.push(t);
    }
    return { rows, ts, end: this.pager.done };
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
