/**
 * "Test connection" of a Kafka node's form (EngineHost.testKafka): connects to `bootstrap`, lists
 * the topics with their partition counts and, when a topic is named, infers its columns from up to
 * SAMPLE records (read_committed, from the partitions' earliest offsets) as the file source's
 * sampler infers a file's: a JSON object's keys, typed by most of their values.
 */
import { KafkaCluster } from './kafka/kafka-cluster.ts';
import { inferColumnsOfLines } from './sample-columns.ts';

const SAMPLE = 100;
const FETCH_WAIT_MS = 500;

export interface KafkaProbeReport {
  ok: boolean;
  message?: string;
  topics?: { topic: string; partitions: number }[];
  columns?: { name: string; type: string }[];
}

export async function probeKafka(req: { bootstrap: string; topic?: string }): Promise<KafkaProbeReport> {
  const cluster = new KafkaCluster(req.bootstrap, 'weir-test-connection');
  try {
    await cluster.connect();
    const topics = await cluster.listTopics();
    if (req.topic === undefined) return { ok: true, topics };
    if (!topics.some((t) => t.topic === req.topic))
      return { ok: false, message: `topic: '${req.topic}' does not exist on ${req.bootstrap}`, topics };
    const parts = await cluster.partitions([req.topic]);
    const offsets = await cluster.offsets(parts, 'earliest');
    const lines: string[] = [];
    for (const p of await cluster.fetch(offsets, parts, FETCH_WAIT_MS))
      for (const r of p.records) if (r.visible && r.value !== null) lines.push(r.value.toString('utf8'));
    const sample = lines.slice(0, SAMPLE);
    const columns = sample.length > 0 ? inferColumnsOfLines(sample, 'jsonl').columns : [];
    return {
      ok: true,
      topics,
      columns,
      ...(sample.length === 0 ? { message: `no records in '${req.topic}' to sample` } : {}),
    };
  } catch (e) {
    return { ok: false, message: `bootstrap: cannot reach ${req.bootstrap}: ${(e as Error).message}` };
  } finally {
    await cluster.disconnect().catch(() => undefined);
  }
}
