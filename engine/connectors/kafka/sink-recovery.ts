/**
 * The host's side of `sink.kafka` (contracts/sink-recovery.ts). Once before the run, prepareOutput
 * checks that the broker answers and the topic exists, so a wrong address or topic fails the run
 * naming `nodes[i].config...` before any task starts. Before every attempt (at-least-once too, so
 * that a sink switched from exactly-once leaves nothing open):
 * 1. commit every transaction the restored checkpoint lists as pending, by its stored producer id
 *    and epoch (transaction-admin.ts; a repeated commit succeeds, so a recovery killed halfway runs
 *    again unchanged);
 * 2. abort every other open transaction of this sink: the broker's coordinators list them
 *    (ListTransactions), each id of this sink's shape (sink-naming.ts) is fenced with InitProducerId,
 *    which aborts it and bumps its epoch, so a zombie producer of an earlier attempt can never
 *    commit it. A fresh start lists nothing and so aborts them all.
 * Flink's KafkaSink does the same (its `LISTING` abort strategy, and FlinkKafkaInternalProducer's
 * resumeTransaction for 1).
 *
 * A listed transaction the broker has already aborted (it outlived the broker's transaction timeout
 * before the restart) lost its rows: the recovery fails, saying so, rather than continue silently.
 */
import type {
  SinkOutputChange,
  SinkPrepareContext,
  SinkRecovery,
  SinkRecoveryContext,
} from '../../contracts/sink-recovery.ts';
import { kafkaSink } from '../../nodes/sink-kafka/definition.ts';
import { KafkaProtocolError, KafkaTransactionAdmin, OPEN_TRANSACTION_STATES } from './transaction-admin.ts';
import { belongsToSink } from './sink-naming.ts';
import { kafkaBootstrap, kafkaSinkPrefix, type KafkaPendingTransaction, type KafkaSinkState } from './sink-operator.ts';

/** Transactions the restored states list, each once. */
function pendingOf(states: readonly unknown[]): KafkaPendingTransaction[] {
  const byId = new Map<string, KafkaPendingTransaction>();
  for (const s of states)
    for (const p of (s as KafkaSinkState | undefined)?.pending ?? []) byId.set(p.transactionalId, p);
  return [...byId.values()];
}

async function commitRestored(admin: KafkaTransactionAdmin, p: KafkaPendingTransaction, at: string): Promise<void> {
  const handle = {
    transactionalId: p.transactionalId,
    producerId: BigInt(p.producerId),
    producerEpoch: p.producerEpoch,
  };
  try {
    await admin.endTransaction(handle, true);
  } catch (e) {
    if (!(e instanceof KafkaProtocolError)) throw e;
    // Refused: ended otherwise, or forgotten (transactional.id.expiration.ms). Only an abort is a loss.
    const now = await admin.describeTransaction(p.transactionalId);
    if (now && now.producerId === handle.producerId && now.state === 'CompleteAbort')
      throw new Error(
        `${at}: transaction '${p.transactionalId}' of checkpoint ${p.checkpointId} (${p.records} messages) was aborted by ` +
          `the broker before it could be committed (it outlived the broker's transaction timeout?): those messages are lost`,
      );
  }
}

export async function recoverKafkaSink({ node, states, jobName }: SinkRecoveryContext): Promise<void> {
  if (node.type !== kafkaSink.type) return;
  const at = `node '${node.id}'.config`;
  const admin = new KafkaTransactionAdmin(kafkaBootstrap(node.config));
  const restored = pendingOf(states);
  try {
    for (const p of restored) await commitRestored(admin, p, at);
    const prefix = kafkaSinkPrefix(node.config, jobName, node.id);
    const keep = new Set(restored.map((p) => p.transactionalId));
    const open = await admin.listTransactions(OPEN_TRANSACTION_STATES);
    for (const t of open)
      if (belongsToSink(prefix, t.transactionalId) && !keep.has(t.transactionalId))
        await admin.fence(t.transactionalId);
  } catch (e) {
    // An at-least-once sink only tidies up after an exactly-once run of it (a changed guarantee,
    // whose open transactions would hold read_committed readers back): a broker without
    // ListTransactions (before Kafka 3.0) is no reason to fail it.
    if (node.config.guarantee !== 'exactly-once' && restored.length === 0) return;
    const msg = (e as Error).message;
    throw new Error(msg.startsWith(at) ? msg : `${at}.bootstrap: recovering the Kafka transactions failed: ${msg}`);
  } finally {
    admin.close();
  }
}

async function checkTopic({ node, job }: SinkPrepareContext): Promise<SinkOutputChange> {
  if (node.type !== kafkaSink.type) return () => {};
  const at = `nodes[${job.nodes.findIndex((n) => n.id === node.id)}].config`;
  // kafkajs loads only for a job with a Kafka sink (issue 27).
  const { Kafka, logLevel } = await import('kafkajs');
  const kafka = new Kafka({
    brokers: kafkaBootstrap(node.config),
    clientId: 'weir-check',
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5000,
    retry: { retries: 2 },
  });
  const admin = kafka.admin();
  let topics: string[];
  try {
    await admin.connect();
    topics = await admin.listTopics();
  } catch (e) {
    throw new Error(`${at}.bootstrap: cannot reach Kafka at ${node.config.bootstrap}: ${(e as Error).message}`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  if (!topics.includes(node.config.topic))
    throw new Error(
      `${at}.topic: Kafka at ${node.config.bootstrap} has no topic '${node.config.topic}' (create it first)`,
    );
  return () => {};
}

export const kafkaSinkRecovery: SinkRecovery = { recover: recoverKafkaSink, prepareOutput: checkTopic };
