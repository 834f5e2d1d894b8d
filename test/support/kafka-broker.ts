/**
 * A throwaway Apache Kafka broker for tests: a single-node KRaft broker (scripts/kafka-broker.mjs)
 * formatted in a temporary folder, on free ports, ready once it answers a Metadata request, stopped
 * and deleted afterwards. Start one per test file and reuse it (a broker takes ~10 s to start):
 * give every test its own topics and transactional ids.
 *
 * The broker is built (npm run kafka:build, a no-op when up to date) before the first start. A
 * missing Java or Maven is an error, not a skip: `.ci/run` installs both, and a test that silently
 * skips proves nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  listTransactionsWithTool,
  prepareBroker,
  removeBrokerDir,
  startBroker,
  stopPid,
  type ToolTransaction,
} from '../../scripts/kafka-broker.mjs';
import { KafkaCluster, splitId } from '../../engine/connectors/kafka/kafka-cluster.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Transaction states in which a transaction is still open (neither committed nor aborted). */
const OPEN_STATES = new Set(['Ongoing', 'PrepareCommit', 'PrepareAbort', 'PrepareEpochFence']);

export interface KafkaRecord {
  partition: number;
  offset: string;
  key: string | null;
  /** null: a tombstone. */
  value: string | null;
}

export interface KafkaBroker {
  /** `127.0.0.1:PORT`, the bootstrap address for clients and for jobs' `bootstrap`. */
  bootstrap: string;
  /** A kafkajs client on this broker (quiet logs). */
  kafka: Kafka;
  createTopic(topic: string, partitions?: number): Promise<void>;
  /**
   * Every record a `read_committed` consumer sees in `topic`, in offset order per partition: reads
   * up to each partition's end as it is when called (open transactions hold a read_committed reader
   * back, so call it once none is left: see openTransactions).
   */
  readCommitted(topic: string): Promise<KafkaRecord[]>;
  /** The broker's own listing (TransactionsCommand `list`) of every transactional id it knows. */
  transactions(): ToolTransaction[];
  /** The listed transactions that are still open, optionally only those whose id starts with `prefix`. */
  openTransactions(prefix?: string): ToolTransaction[];
  /** Stops the broker (SIGTERM, SIGKILL after a grace period) and deletes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Builds the broker's classpath if needed; throws with the build's output when it fails. */
export function buildKafkaBroker(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'kafka-build.mjs')], { encoding: 'utf8', cwd: ROOT });
  if (r.status !== 0) throw new Error(`npm run kafka:build failed:\n${r.stdout}${r.stderr}`);
}

export async function startKafkaBroker(): Promise<KafkaBroker> {
  buildKafkaBroker();
  const dir = mkdtempSync(join(tmpdir(), 'weir-kafka-'));
  const { port } = await prepareBroker({ dir });
  const { bootstrap, child } = await startBroker({ dir, port });
  const kafka = new Kafka({ brokers: [bootstrap], clientId: 'weir-test', logLevel: logLevel.NOTHING });
  let stopped = false;
  const withAdmin = async <T>(fn: (admin: Admin) => Promise<T>): Promise<T> => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.disconnect();
    }
  };
  const transactions = () => listTransactionsWithTool(bootstrap);
  return {
    bootstrap,
    kafka,
    async createTopic(topic, partitions = 1) {
      await withAdmin(async (admin) => {
        await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: false });
        await untilLeaders(admin, topic, partitions);
      });
    },
    async readCommitted(topic) {
      const ends = await withAdmin((admin) => admin.fetchTopicOffsets(topic));
      return readUpTo(bootstrap, topic, new Map(ends.map((e) => [e.partition, Number(e.high)])));
    },
    transactions,
    openTransactions(prefix = '') {
      return transactions().filter((t) => t.transactionalId.startsWith(prefix) && OPEN_STATES.has(t.state));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (child.pid !== undefined && child.exitCode === null) await stopPid(child.pid);
      } finally {
        removeBrokerDir(dir);
      }
    },
  };
}

/**
 * Waits until every partition of a new topic has a leader. kafkajs's own `waitForLeaders` gives up
 * with UNKNOWN_TOPIC_OR_PARTITION when the broker's metadata lags behind on a loaded machine.
 */
async function untilLeaders(admin: Admin, topic: string, partitions: number): Promise<void> {
  const end = Date.now() + 60_000;
  for (;;) {
    let why: string;
    try {
      const [t] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      if (t && t.partitions.length === partitions && t.partitions.every((p) => p.leader >= 0)) return;
      why = `${t?.partitions.filter((p) => p.leader >= 0).length ?? 0} of ${partitions} partitions have a leader`;
    } catch (e) {
      why = (e as Error).message;
    }
    if (Date.now() > end) throw new Error(`creating topic ${topic}: still no leaders after 60 s (${why})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Reads `topic` read_committed from the start until each partition's position reached `ends`. Not
 * through kafkajs's consumer: its aborted-transaction filter shows records of transactions aborted
 * out of their starting order (engine/connectors/kafka/aborted-transactions.ts, proven against the
 * broker's own consumer in aborted-transactions.test.ts); the Kafka source's fetch applies the
 * Java consumer's rule.
 */
async function readUpTo(bootstrap: string, topic: string, ends: Map<number, number>): Promise<KafkaRecord[]> {
  let pending = [...ends].filter(([, end]) => end > 0).map(([partition]) => ({ topic, partition }));
  if (pending.length === 0) return [];
  const records: KafkaRecord[] = [];
  const cluster = new KafkaCluster(bootstrap, 'weir-test-reader');
  await cluster.connect();
  try {
    await cluster.partitions([topic]);
    const offsets = await cluster.offsets(pending, 'earliest');
    const end = Date.now() + 60_000;
    while (pending.length > 0) {
      // An open transaction holds a read_committed reader back below the end read here: fail, never hang.
      if (Date.now() > end)
        throw new Error(
          `reading ${topic}: partitions ${pending.map((p) => p.partition).join(', ')} did not reach their end in 60 s`,
        );
      for (const f of await cluster.fetch(offsets, pending, 500))
        for (const r of f.records) {
          if (r.visible)
            records.push({
              partition: f.partition,
              offset: String(r.offset),
              key: r.key === null ? null : r.key.toString('utf8'),
              value: r.value === null ? null : r.value.toString('utf8'),
            });
          offsets.set(splitId(topic, f.partition), r.offset + 1);
        }
      pending = pending.filter((p) => offsets.get(splitId(topic, p.partition))! < ends.get(p.partition)!);
    }
  } finally {
    await cluster.disconnect();
  }
  return records.sort((a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset));
}
