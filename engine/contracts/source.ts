/**
 * The source side of the runtime. A source subtask owns a reader; the source task loop calls
 * `read` between barrier injections, so the reader's `position()` at any call boundary is the Sn
 * that barrier n records (docs/architecture.md, the checkpoint protocol).
 *
 * Rules: `read` returns at most `max` records and never splits a record; the same position always
 * yields the same next batch (bounded inputs replay identically after a restore).
 */
import type { OutputPort, Row, RowKind } from './operator.ts';

export interface SourceReadResult {
  rows: Row[];
  ts: number[];
  /** The bounded input is exhausted (never set for unbounded/follow sources). */
  end: boolean;
  /** Nothing available now: retry after this many ms (rate limit, follow mode). */
  waitMs?: number;
  /**
   * Dead letters read in this call (`onBadRecord: 'dead-letter'`): `{ file, line, reason, text }`
   * rows for the source's `bad` port, emitted in-band before the next barrier, so a checkpoint's
   * position covers exactly the dead letters already emitted.
   */
  bad?: Row[];
  /**
   * Multi-port sources (`source.nexmark`): `ports[i]` is the output port of `rows[i]`; absent = all
   * on `out`. The task splits the batch by port, keeping each port's rows in read order.
   */
  ports?: OutputPort[];
  /** Changelog sources only (graph/changelog.ts): the row kind of each row; absent = all +I. */
  kinds?: RowKind[];
}

export interface SourceReader {
  read(max: number): Promise<SourceReadResult>;
  /** JSON position: byte offsets per file, or the generator's next sequence number. */
  position(): unknown;
  /**
   * Checkpoint n completed everywhere; `position` is the one this reader gave for barrier n. For
   * sources that acknowledge upstream (a replication slot): never before this call, since a
   * restore may replay from position n.
   */
  notifyCheckpointComplete?(checkpointId: number, position: unknown): Promise<void>;
  close(): Promise<void>;
  /**
   * Readers with several splits that keep a watermark per split (Kafka partitions, Flink's
   * per-split watermarks): the combined watermark now (null: held back) and whether every split is
   * idle. The task then takes this instead of one generator over all the reader's records.
   */
  splitWatermark?(): { watermark: number | null; idle: boolean };
  /** Per split (Kafka partition): the next offset and the records behind the split's end (live panel). */
  splitProgress?(): Array<{ split: string; offset: number; lag: number }>;
  /**
   * A reader that builds only the columns the job reads switches to whole rows while `on` (an edge
   * sample in the live panel shows the records as they are in the file).
   */
  showAllColumns?(on: boolean): void;
}

export interface SourceContext {
  subtask: number;
  parallelism: number;
  resolvePath(p: string): string;
  /** A record that does not parse (`onBadRecord: skip` or `dead-letter`): counted and reported with file:line. */
  badRecord(where: string, message: string): void;
  /** The job's name (sources that name things after the job: a replication slot). */
  jobName?: string;
  /** A one-line notice for the run's log (a slot created and how to drop it). */
  notice?(message: string): void;
}

export class BadRecordError extends Error {
  override name = 'BadRecordError';
}
