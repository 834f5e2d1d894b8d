/**
 * Kafka transaction control at the protocol level, for what kafkajs cannot do (Flink's
 * FlinkKafkaInternalProducer does the same with reflection on the Java producer):
 * - `endTransaction`: EndTxn with a stored producer id and epoch, committing a transaction a dead
 *   process prepared (its records flushed, its id and epoch in a checkpoint);
 * - `fence`: InitProducerId on a transactional id, which aborts its open transaction and bumps the
 *   epoch so its old producer can never write again;
 * - `listTransactions` / `describeTransaction`: ListTransactions (KIP-664, every broker lists the
 *   transactions it coordinates) and DescribeTransactions.
 *
 * Versions: the non-flexible EndTxn v1 and InitProducerId v1 keep transactions on protocol v1 (the
 * versions kafkajs uses, so a kafkajs producer and this module see the same epochs: EndTxn v5 would
 * turn on KIP-890's epoch bump per transaction). Kafka 2.x to 4.x serve all of them.
 */
import { WireConnection, parseHostPort, type WireRequest } from './wire-connection.ts';
import { WireReader, WireWriter } from './wire-codec.ts';

const API = { metadata: 3, findCoordinator: 10, initProducerId: 22, endTxn: 26, describeTxns: 65, listTxns: 66 };

/** Kafka error codes this module reacts to (kafka.apache.org/protocol#protocol_error_codes). */
const ERRORS: Record<number, string> = {
  14: 'COORDINATOR_LOAD_IN_PROGRESS',
  15: 'COORDINATOR_NOT_AVAILABLE',
  16: 'NOT_COORDINATOR',
  47: 'INVALID_PRODUCER_EPOCH',
  48: 'INVALID_TXN_STATE',
  49: 'INVALID_PRODUCER_ID_MAPPING',
  51: 'CONCURRENT_TRANSACTIONS',
  53: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
  90: 'PRODUCER_FENCED',
};
/** Worth retrying: the coordinator is loading, moved, or still completing an earlier end. */
const RETRIABLE = new Set([14, 15, 16, 51]);

export class KafkaProtocolError extends Error {
  override name = 'KafkaProtocolError';
  constructor(
    readonly code: number,
    what: string,
  ) {
    super(`${what}: Kafka error ${ERRORS[code] ?? code}`);
  }
}

export interface ListedTransaction {
  transactionalId: string;
  producerId: bigint;
  state: string;
}

export interface DescribedTransaction extends ListedTransaction {
  producerEpoch: number;
  timeoutMs: number;
}

/** A prepared transaction as a checkpoint stores it. */
export interface TransactionHandle {
  transactionalId: string;
  producerId: bigint;
  producerEpoch: number;
}

/** Transaction states that are still open: a read_committed reader waits for them to end. */
export const OPEN_TRANSACTION_STATES = ['Ongoing', 'PrepareCommit', 'PrepareAbort', 'PrepareEpochFence'];

export interface TransactionAdminOptions {
  /** How long retriable errors are retried (a coordinator loading after a broker restart). */
  retryForMs?: number;
}

export class KafkaTransactionAdmin {
  private readonly connections = new Map<string, WireConnection>();
  private readonly retryForMs: number;

  constructor(
    private readonly bootstrap: readonly string[],
    options: TransactionAdminOptions = {},
  ) {
    if (bootstrap.length === 0) throw new Error('no Kafka bootstrap address');
    this.retryForMs = options.retryForMs ?? 60_000;
  }

  private connection(host: string, port: number): WireConnection {
    const key = `${host}:${port}`;
    let c = this.connections.get(key);
    if (!c) this.connections.set(key, (c = new WireConnection(host, port)));
    return c;
  }

  /** Sends to the first bootstrap broker that answers. */
  private async anyBroker(req: WireRequest): Promise<WireReader> {
    let last: unknown;
    for (const address of this.bootstrap) {
      const { host, port } = parseHostPort(address);
      try {
        return await this.connection(host, port).send(req);
      } catch (e) {
        last = e;
      }
    }
    throw last;
  }

  /** Retries `attempt` while it fails with a retriable Kafka error, for up to retryForMs. */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.retryForMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      try {
        return await attempt();
      } catch (e) {
        if (!(e instanceof KafkaProtocolError) || !RETRIABLE.has(e.code) || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** Every broker of the cluster (Metadata v1 for no topics). */
  async brokers(): Promise<{ nodeId: number; host: string; port: number }[]> {
    const r = await this.anyBroker({
      apiKey: API.metadata,
      version: 1,
      flexible: false,
      body: new WireWriter().int32(0).bytes(),
    });
    return r.array((b) => {
      const nodeId = b.int32();
      const host = b.string() ?? '';
      const port = b.int32();
      b.string(); // rack
      return { nodeId, host, port };
    });
  }

  /** The broker coordinating `transactionalId` (FindCoordinator v1, key type 1 = transaction). */
  private async coordinator(transactionalId: string): Promise<WireConnection> {
    const body = new WireWriter().string(transactionalId).int8(1).bytes();
    const r = await this.anyBroker({ apiKey: API.findCoordinator, version: 1, flexible: false, body });
    r.int32(); // throttle
    const code = r.int16();
    r.string(); // message
    const nodeId = r.int32();
    const host = r.string() ?? '';
    const port = r.int32();
    if (code !== 0)
      throw new KafkaProtocolError(code, `finding the coordinator of transactional id '${transactionalId}'`);
    if (nodeId < 0)
      throw new KafkaProtocolError(15, `finding the coordinator of transactional id '${transactionalId}'`);
    return this.connection(host, port);
  }

  private async toCoordinator(transactionalId: string, req: WireRequest): Promise<WireReader> {
    return (await this.coordinator(transactionalId)).send(req);
  }

  /**
   * Commits (or aborts) the transaction `handle` names, as its producer would have: EndTxn with its
   * producer id and epoch. Committing one that is already committed succeeds (the coordinator
   * answers a repeated end with the same result), so recovery may run this twice.
   */
  async endTransaction(handle: TransactionHandle, commit: boolean): Promise<void> {
    const what = `${commit ? 'committing' : 'aborting'} transaction '${handle.transactionalId}' (producer ${handle.producerId}, epoch ${handle.producerEpoch})`;
    const body = new WireWriter()
      .string(handle.transactionalId)
      .int64(handle.producerId)
      .int16(handle.producerEpoch)
      .bool(commit)
      .bytes();
    await this.retrying(async () => {
      const r = await this.toCoordinator(handle.transactionalId, {
        apiKey: API.endTxn,
        version: 1,
        flexible: false,
        body,
      });
      r.int32(); // throttle
      const code = r.int16();
      if (code !== 0) throw new KafkaProtocolError(code, what);
    });
  }

  /**
   * Fences `transactionalId`: InitProducerId aborts its open transaction (if any) and bumps its
   * epoch, so a producer still holding the old epoch is refused. Returns the new id and epoch.
   */
  async fence(transactionalId: string, transactionTimeoutMs = 60_000): Promise<TransactionHandle> {
    const body = new WireWriter().string(transactionalId).int32(transactionTimeoutMs).bytes();
    return this.retrying(async () => {
      const r = await this.toCoordinator(transactionalId, {
        apiKey: API.initProducerId,
        version: 1,
        flexible: false,
        body,
      });
      r.int32(); // throttle
      const code = r.int16();
      const producerId = r.int64();
      const producerEpoch = r.int16();
      if (code !== 0) throw new KafkaProtocolError(code, `fencing transactional id '${transactionalId}'`);
      return { transactionalId, producerId, producerEpoch };
    });
  }

  /** Every transaction the cluster's coordinators know, in `states` if given (ListTransactions v0). */
  async listTransactions(states: readonly string[] = []): Promise<ListedTransaction[]> {
    const body = new WireWriter()
      .compactArray(states, (w, s) => w.compactString(s))
      .compactArray([] as bigint[], (w, id) => w.int64(id))
      .tags()
      .bytes();
    const out: ListedTransaction[] = [];
    for (const b of await this.brokers()) {
      const listed = await this.retrying(async () => {
        const r = await this.connection(b.host, b.port).send({
          apiKey: API.listTxns,
          version: 0,
          flexible: true,
          body,
        });
        r.int32(); // throttle
        const code = r.int16();
        r.compactArray((u) => u.compactString()); // unknown state filters
        const txns = r.compactArray((t) => {
          const transactionalId = t.compactString() ?? '';
          const producerId = t.int64();
          const state = t.compactString() ?? '';
          t.tags();
          return { transactionalId, producerId, state };
        });
        if (code !== 0) throw new KafkaProtocolError(code, `listing the transactions of broker ${b.nodeId}`);
        return txns;
      });
      out.push(...listed);
    }
    return out;
  }

  /** The coordinator's view of one transactional id (DescribeTransactions v0), or null if unknown. */
  async describeTransaction(transactionalId: string): Promise<DescribedTransaction | null> {
    const body = new WireWriter()
      .compactArray([transactionalId], (w, id) => w.compactString(id))
      .tags()
      .bytes();
    return this.retrying(async () => {
      const r = await this.toCoordinator(transactionalId, {
        apiKey: API.describeTxns,
        version: 0,
        flexible: true,
        body,
      });
      r.int32(); // throttle
      const [t] = r.compactArray((d) => {
        const code = d.int16();
        const id = d.compactString() ?? '';
        const state = d.compactString() ?? '';
        const timeoutMs = d.int32();
        d.int64(); // start time
        const producerId = d.int64();
        const producerEpoch = d.int16();
        d.compactArray((topic) => {
          topic.compactString();
          topic.compactArray((p) => p.int32());
          topic.tags();
        });
        d.tags();
        return { code, transactionalId: id, state, timeoutMs, producerId, producerEpoch };
      });
      if (!t) return null;
      // TRANSACTIONAL_ID_NOT_FOUND (105): the coordinator has never seen it, or it expired.
      if (t.code === 105) return null;
      if (t.code !== 0) throw new KafkaProtocolError(t.code, `describing transactional id '${transactionalId}'`);
      const { code: _code, ...described } = t;
      return described;
    });
  }

  close(): void {
    for (const c of this.connections.values()) c.close();
    this.connections.clear();
  }
}
