/**
 * The replication side of a CDC source: creating its slot with an exported snapshot, and streaming
 * the slot's changes (pgoutput) on a `replication: 'database'` connection.
 *
 * Acknowledgement is ours, not the library's: pg-logical-replication's `acknowledge(lsn)` confirms
 * lsn + 1 and its timer confirms the last LSN received, which would let the server forget changes
 * that no checkpoint covers yet. The server learns only `confirmed` (set from completed
 * checkpoints), both when we confirm and when a keepalive asks for a reply.
 */
// Only types at load time: pg and its pgoutput decoder load when a CDC source starts streaming.
import type pg from 'pg';
import type { Pgoutput } from 'pg-logical-replication';
import { type Lsn, formatLsn } from './lsn.ts';
import { quoteIdent } from './connection.ts';
import { keepTextOf } from './pg-values.ts';

export type PgoutputMessage = Pgoutput.Message;

/** Above this many buffered messages the socket is paused (back-pressure to the server). */
const HIGH_WATER = 20_000;

/** A replication connection: `replication: 'database'` lets it run replication commands. */
export async function replicationClient(config: pg.ClientConfig): Promise<pg.Client> {
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ ...config, replication: 'database' } as pg.ClientConfig);
  await client.connect();
  return client;
}

export interface CreatedSlot {
  /** The open connection that exported the snapshot: the snapshot lives while it stays idle. */
  client: pg.Client;
  consistentPoint: string;
  snapshotName: string;
}

/** `temporary`: dropped by the server when the connection ends (a resumed snapshot's view). */
export async function createSlotWithSnapshot(
  config: pg.ClientConfig,
  slot: string,
  temporary = false,
): Promise<CreatedSlot> {
  const client = await replicationClient(config);
  try {
    const res = await client.query<{ consistent_point: string; snapshot_name: string }>(
      `CREATE_REPLICATION_SLOT ${quoteIdent(slot)} ${temporary ? 'TEMPORARY ' : ''}LOGICAL pgoutput EXPORT_SNAPSHOT`,
    );
    const r = res.rows[0];
    return { client, consistentPoint: r.consistent_point, snapshotName: r.snapshot_name };
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
}

interface Connection {
  on(event: 'copyData', fn: (m: { chunk: Buffer }) => void): void;
  sendCopyFromChunk(b: Buffer): void;
  stream: { pause(): void; resume(): void };
}

/** Microseconds since 2000-01-01 (PostgreSQL's epoch), for status updates. */
function pgNow(): bigint {
  return BigInt(Date.now() - 946_684_800_000) * 1000n;
}

export class ReplicationStream {
  private readonly buffer: PgoutputMessage[] = [];
  private paused = false;
  private failure: Error | null = null;
  private client: pg.Client | null = null;
  private conn: Connection | null = null;
  /** What the server may forget: everything before it (set from completed checkpoints only). */
  confirmed: Lsn;

  constructor(confirmed: Lsn) {
    this.confirmed = confirmed;
  }

  /** Starts streaming at the slot's confirmed position (the server skips what is confirmed). */
  async start(config: pg.ClientConfig, slot: string, publication: string): Promise<void> {
    // Only its pgoutput decoder is used (relation cache included); the streaming is ours.
    const { PgoutputPlugin } = await import('pg-logical-replication');
    const parser = new PgoutputPlugin({ protoVersion: 1, publicationNames: [] });
    const client = await replicationClient(config);
    this.client = client;
    const conn = (client as unknown as { connection: Connection }).connection;
    this.conn = conn;
    client.on('error', (e: Error) => (this.failure ??= e));
    conn.on('copyData', ({ chunk }) => {
      try {
        if (chunk[0] === 0x77) {
          // XLogData: 'w', start LSN, end LSN, send time, then the pgoutput message.
          const msg = parser.parse(chunk.subarray(25));
          // Before the tuples after it are parsed: zoneless timestamps stay text (pg-values.ts).
          if (msg.tag === 'relation') keepTextOf(msg.columns);
          this.buffer.push(msg);
          if (this.buffer.length >= HIGH_WATER && !this.paused) {
            this.paused = true;
            conn.stream.pause();
          }
        } else if (chunk[0] === 0x6b && chunk[17] === 1) {
          this.sendStatus(); // keepalive asking for a reply (else wal_sender_timeout ends us)
        }
      } catch (e) {
        this.failure ??= e as Error;
      }
    });
    const options = `proto_version '1', publication_names '${publication.replace(/'/g, "''")}'`;
    // The query settles only when replication ends: its outcome is observed through `failure`.
    client.query(`START_REPLICATION SLOT ${quoteIdent(slot)} LOGICAL 0/0 (${options})`).then(
      () => (this.failure ??= new Error('replication ended by the server')),
      (e: Error) => (this.failure ??= e),
    );
  }

  /** Up to `max` messages in WAL commit order (throws if the stream failed). */
  take(max: number): PgoutputMessage[] {
    if (this.buffer.length === 0 && this.failure) throw this.failure;
    const out = this.buffer.splice(0, max);
    if (this.paused && this.buffer.length < HIGH_WATER / 2) {
      this.paused = false;
      this.conn?.stream.resume();
    }
    return out;
  }

  /** The server may drop WAL before `lsn`: only called for a completed checkpoint's position. */
  confirm(lsn: Lsn): void {
    if (lsn <= this.confirmed) return;
    this.confirmed = lsn;
    this.sendStatus();
  }

  private sendStatus(): void {
    const b = Buffer.alloc(34);
    b[0] = 0x72; // 'r': standby status update
    b.writeBigUInt64BE(this.confirmed, 1); // written
    b.writeBigUInt64BE(this.confirmed, 9); // flushed: the server's confirmed_flush_lsn
    b.writeBigUInt64BE(this.confirmed, 17); // applied
    b.writeBigInt64BE(pgNow(), 25);
    b[33] = 0;
    this.conn?.sendCopyFromChunk(b);
  }

  describe(): string {
    return formatLsn(this.confirmed);
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = null;
    this.conn = null;
    if (c) {
      // Ending a connection in COPY BOTH mode: destroy the socket (a graceful end can hang).
      (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      await c.end().catch(() => undefined);
    }
  }
}
