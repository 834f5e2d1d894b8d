/**
 * `sink.kafka`, the seed's two-phase commit with Kafka transactions (exactly-once):
 * - rows become messages (record-format.ts) sent in a Kafka transaction of this subtask, opened at
 *   the first row after a barrier under a transactional id never used before (sink-naming.ts);
 * - barrier n (preCommit): every message is sent and acknowledged, the transaction's producer id and
 *   epoch are read from its coordinator, and it is listed as pending in snapshot n; its producer is
 *   let go without ending it (an empty interval opens no transaction and lists nothing);
 * - notifyCheckpointComplete(m): every pending transaction of a checkpoint <= m is committed by its
 *   stored id and epoch (EndTxn, transaction-admin.ts): the path a restore takes too, run on every
 *   checkpoint;
 * - restore: the host's recovery hook (sink-recovery.ts) committed what the restored checkpoint lists
 *   and aborted every other open transaction of this sink before the task started.
 * Without checkpointing the only transaction is committed at end of input.
 *
 * At-least-once: plain (non-transactional) sends, every one acknowledged before the barrier passes;
 * a restart replays from the checkpoint, so messages after it may be written twice.
 */
import { randomBytes } from 'node:crypto';
import type { Kafka, Producer, Transaction } from 'kafkajs';
import type { KafkaSinkConfig } from '../../graph/types.ts';
import type {
  OperatorContext,
  OperatorOutput,
  OperatorSnapshot,
  RecordBatch,
  StreamOperator,
} from '../../contracts/operator.ts';
import type { OperatorServices, PendingOutputReporter } from '../../contracts/operator-services.ts';
import { kafkaKeyColumns } from '../../nodes/sink-kafka/definition.ts';
import { toMessages, type KafkaMessage } from './record-format.ts';
import { KafkaTransactionAdmin } from './transaction-admin.ts';
import { TRANSACTION_TIMEOUT_MS, defaultTransactionalIdPrefix, transactionalIdOf } from './sink-naming.ts';

/** A transaction prepared at a barrier, as snapshot n stores it (producer id as text: it is 64-bit). */
export interface KafkaPendingTransaction {
  checkpointId: number;
  transactionalId: string;
  producerId: string;
  producerEpoch: number;
  records: number;
}

export interface KafkaSinkState {
  pending: KafkaPendingTransaction[];
}

export interface KafkaSinkOptions {
  jobName: string;
  nodeId: string;
  /** `nodes[i].config`, prefixing every error. */
  at: string;
}

/** Messages are sent once this many are buffered (and at every barrier). */
const SEND_BATCH = 2000;

export function kafkaBootstrap(cfg: Pick<KafkaSinkConfig, 'bootstrap'>): string[] {
  return cfg.bootstrap
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
}

export function kafkaSinkPrefix(cfg: KafkaSinkConfig, jobName: string, nodeId: string): string {
  return cfg.transactionalIdPrefix ?? defaultTransactionalIdPrefix(jobName, nodeId);
}

export class KafkaSinkOperator implements StreamOperator, PendingOutputReporter {
  private kafka: Kafka | null = null;
  private admin: KafkaTransactionAdmin | null = null;
  private subtask = 0;
  private readonly keyColumns: string[];
  private readonly prefix: string;
  private readonly instance = randomBytes(4).toString('hex');
  private transactions = 0;
  private buffer: KafkaMessage[] = [];
  /** At-least-once: the one plain producer. Exactly-once: the open transaction's producer. */
  private producer: Producer | null = null;
  private txn: { id: string; transaction: Transaction; records: number } | null = null;
  private pending: KafkaPendingTransaction[] = [];

  constructor(
    private readonly cfg: KafkaSinkConfig,
    private readonly opts: KafkaSinkOptions,
    private readonly services: OperatorServices,
  ) {
    this.keyColumns = kafkaKeyColumns(cfg.key);
    this.prefix = kafkaSinkPrefix(cfg, opts.jobName, opts.nodeId);
  }

  private get exactlyOnce(): boolean {
    return this.cfg.guarantee === 'exactly-once';
  }

  async open(ctx: OperatorContext, _out: OperatorOutput): Promise<void> {
    this.subtask = ctx.subtask;
    const brokers = kafkaBootstrap(this.cfg);
    // Imported here, not with the module: a task process without a Kafka sink never loads kafkajs
    // (issue 27: ~50 ms of its start-up).
    const { Kafka, logLevel } = await import('kafkajs');
    this.kafka = new Kafka({
      brokers,
      clientId: `weir-${this.opts.nodeId}-${ctx.subtask}`,
      // Errors reach the task as rejected sends; kafkajs' own log would repeat every retry.
      logLevel: logLevel.NOTHING,
    });
    if (this.exactlyOnce) this.admin = new KafkaTransactionAdmin(brokers);
    else {
      this.producer = this.kafka.producer({ allowAutoTopicCreation: false });
      await this.connect(this.producer);
    }
  }

  private async connect(producer: Producer): Promise<void> {
    try {
      await producer.connect();
    } catch (e) {
      throw new Error(
        `${this.opts.at}.bootstrap: cannot reach Kafka at ${this.cfg.bootstrap}: ${(e as Error).message}`,
      );
    }
  }

  async processBatch(batch: RecordBatch): Promise<void> {
    if (batch.rows.length === 0) return;
    let messages: KafkaMessage[];
    try {
      messages = toMessages(batch.rows, batch.kinds, this.cfg.format, this.keyColumns);
    } catch (e) {
      throw new Error(`${this.opts.at}.format: ${(e as Error).message}`);
    }
    for (const m of messages) this.buffer.push(m);
    if (this.buffer.length >= SEND_BATCH) await this.send();
  }

  /** Opens this subtask's next transaction under a new transactional id. */
  private async begin(): Promise<NonNullable<KafkaSinkOperator['txn']>> {
    if (this.txn) return this.txn;
    const id = transactionalIdOf(this.prefix, this.subtask, this.instance, this.transactions++);
    const producer = this.kafka!.producer({
      transactionalId: id,
      idempotent: true,
      maxInFlightRequests: 1,
      transactionTimeout: TRANSACTION_TIMEOUT_MS,
      allowAutoTopicCreation: false,
    });
    await this.connect(producer);
    this.producer = producer;
    this.txn = { id, transaction: await producer.transaction(), records: 0 };
    return this.txn;
  }

  /** Sends the buffer and waits for every acknowledgement. */
  private async send(): Promise<void> {
    const messages = this.buffer;
    if (messages.length === 0) return;
    this.buffer = [];
    try {
      if (this.exactlyOnce) {
        const txn = await this.begin();
        await txn.transaction.send({ topic: this.cfg.topic, messages, acks: -1 });
        txn.records += messages.length;
      } else {
        await this.producer!.send({ topic: this.cfg.topic, messages, acks: -1 });
      }
    } catch (e) {
      throw new Error(
        `${this.opts.at}.topic: writing to Kafka topic '${this.cfg.topic}' failed: ${(e as Error).message}`,
      );
    }
  }

  async processWatermark(): Promise<void> {}

  async snapshotState(checkpointId: number): Promise<OperatorSnapshot> {
    await this.send();
    if (this.txn) {
      const { id, records } = this.txn;
      const described = await this.admin!.describeTransaction(id);
      if (described === null || described.state !== 'Ongoing')
        throw new Error(
          `${this.opts.at}: transaction '${id}' is ${described?.state ?? 'unknown to its coordinator'} at checkpoint ${checkpointId}, not open`,
        );
      this.pending.push({
        checkpointId,
        transactionalId: id,
        producerId: String(described.producerId),
        producerEpoch: described.producerEpoch,
        records,
      });
      // The transaction stays open without its producer: it is committed by id and epoch.
      await this.releaseProducer();
    }
    const state: KafkaSinkState = { pending: this.pending.map((p) => ({ ...p })) };
    return { operator: state };
  }

  private async releaseProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    this.txn = null;
    await producer?.disconnect().catch(() => undefined);
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    const due = this.pending.filter((p) => p.checkpointId <= checkpointId);
    for (const p of due)
      await this.admin!.endTransaction(
        { transactionalId: p.transactionalId, producerId: BigInt(p.producerId), producerEpoch: p.producerEpoch },
        true,
      );
    this.pending = this.pending.filter((p) => p.checkpointId > checkpointId);
  }

  async endInput(): Promise<void> {
    await this.send();
    if (!this.txn) return;
    if (this.services.checkpointing) {
      // Sources end with a final barrier, so this only happens if records followed it.
      this.services.log(
        'warn',
        `sink.kafka subtask ${this.subtask}: ${this.txn.records} messages after the final checkpoint, committed at end of input`,
      );
    }
    await this.txn.transaction.commit();
    await this.releaseProducer();
  }

  pendingOutput(): { records: number; files: number } {
    let records = this.buffer.length + (this.txn?.records ?? 0);
    let files = records > 0 ? 1 : 0;
    for (const p of this.pending) {
      records += p.records;
      files++;
    }
    return { records, files };
  }

  async close(): Promise<void> {
    // Open transactions stay open: recovery commits or aborts them.
    await this.releaseProducer();
    this.admin?.close();
    this.admin = null;
  }
}
