/**
 * Which fetched records a `read_committed` reader sees: Kafka's consumer rule (the Java client's
 * `CompletedFetch`), which kafkajs gets wrong.
 *
 * A read_committed Fetch answers, per partition, the records and the transactions aborted in their
 * range (producer id, first offset). The broker lists those in the order they were aborted, not
 * started. kafkajs's filter (consumer/filterAbortedMessages.js, 2.2.4) takes the list as sorted by
 * first offset and moves past one entry per record, so when two transactions that both wrote to a
 * partition are aborted in the other order than they began, the earlier one's records are shown as
 * if committed. Exactly that happens when a `sink.kafka` recovery fences the open transactions of a
 * killed attempt (each subtask's transaction writes to every partition): the chaos test's
 * read_committed reader saw one aborted checkpoint interval of one subtask twice, while the broker's
 * own consumer saw every record once (test/engine/connectors/kafka/aborted-transactions.test.ts).
 *
 * The rule, as the Java consumer applies it: walking the records in offset order, every aborted
 * transaction whose first offset has been reached marks its producer aborted; a transactional record
 * of a marked producer is hidden; that producer's abort marker (a control record) ends the mark.
 * Control records are never shown.
 */

/**
 * A fetched record as kafkajs decodes it (offsets and producer ids are int64s as text); a record of
 * the pre-0.11 message format has no batch context and is never transactional.
 */
export interface FetchedMessage {
  offset: string;
  key: Buffer | null;
  isControlRecord?: boolean;
  batchContext?: { producerId: string; inTransaction: boolean };
}

/** One entry of a Fetch response's aborted transactions. */
export interface AbortedTransaction {
  producerId: string;
  firstOffset: string;
}

/** A control record's key is its version (int16) and type (int16): 0 = ABORT, 1 = COMMIT. */
function isAbortMarker(m: FetchedMessage): boolean {
  return m.key !== null && m.key.length >= 4 && m.key.readInt16BE(2) === 0;
}

/** The records of `messages` (one partition, offset order) a read_committed reader sees. */
export function committedRecords<M extends FetchedMessage>(
  messages: readonly M[],
  aborted: readonly AbortedTransaction[] | null | undefined,
): M[] {
  const byStart = [...(aborted ?? [])].sort((a, b) => Number(a.firstOffset) - Number(b.firstOffset));
  const abortedProducers = new Set<string>();
  let next = 0;
  const out: M[] = [];
  for (const m of messages) {
    const offset = Number(m.offset);
    while (next < byStart.length && Number(byStart[next].firstOffset) <= offset)
      abortedProducers.add(String(byStart[next++].producerId));
    const producer = String(m.batchContext?.producerId);
    if (m.isControlRecord) {
      if (isAbortMarker(m)) abortedProducers.delete(producer);
    } else if (!(m.batchContext?.inTransaction && abortedProducers.has(producer))) out.push(m);
  }
  return out;
}
