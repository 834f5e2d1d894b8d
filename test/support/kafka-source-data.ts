/**
 * Records for source.kafka tests: `{ id, k, v, at }` with id i in partition i % partitions, written
 * through an idempotent producer; plus aborted transactions and bad records that a
 * read_committed, exactly-once source must never turn into rows. The reference is the ids written
 * outside aborted transactions. `openTransaction` leaves one open, as a killed producer does.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Kafka, Producer } from 'kafkajs';

export const EPOCH = Date.UTC(2024, 0, 1);

export function eventOf(id: number): { id: number; k: string; v: number; at: number } {
  return { id, k: `k${id % 7}`, v: id % 1000, at: EPOCH + id * 10 };
}

/** Writes ids [from, to) in batches; each id goes to partition id % partitions. */
export async function produceIds(kafka: Kafka, topic: string, from: number, to: number, partitions: number) {
  // Idempotent: a retried send (a partition just created has no leader yet) never writes a record twice.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (let start = from; start < to; start += 500) {
      const ids = Array.from({ length: Math.min(500, to - start) }, (_, i) => start + i);
      await producer.send({
        topic,
        messages: ids.map((id) => ({ partition: id % partitions, value: JSON.stringify(eventOf(id)) })),
      });
    }
  } finally {
    await producer.disconnect();
  }
}

/** A transaction of ids (negative, so they can never be mistaken for reference rows) that is aborted. */
export async function produceAborted(kafka: Kafka, topic: string, ids: number[], partitions: number) {
  const producer = kafka.producer({ transactionalId: `aborter-${topic}`, maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  try {
    const tx = await producer.transaction();
    await tx.send({
      topic,
      messages: ids.map((id) => ({ partition: Math.abs(id) % partitions, value: JSON.stringify(eventOf(id)) })),
    });
    await tx.abort();
  } finally {
    await producer.disconnect();
  }
}

export async function produceRaw(kafka: Kafka, topic: string, partition: number, values: string[]) {
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages: values.map((value) => ({ partition, value })) });
  } finally {
    await producer.disconnect();
  }
}

/** Ids of the rows a file sink folder committed (read through its manifest), in file order. */
export function committedIds(out: string): number[] {
  const manifest = join(out, '.weir-sink-manifest.jsonl');
  if (!existsSync(manifest)) return [];
  const ids: number[] = [];
  const seen = new Set<string>();
  for (const line of readFileSync(manifest, 'utf8').split('\n')) {
    let e: { kind: string; files?: string[] };
    try {
      e = (JSON.parse(line) as { e: { kind: string; files?: string[] } }).e;
    } catch {
      continue; // a blank or torn last line: its commit never happened
    }
    if (e.kind !== 'commit') continue;
    for (const f of e.files ?? []) {
      if (seen.has(f) || !existsSync(join(out, f))) continue;
      seen.add(f);
      for (const l of readFileSync(join(out, f), 'utf8').split('\n'))
        if (l.trim()) ids.push((JSON.parse(l) as { id: number }).id);
    }
  }
  return ids;
}

/** Ids committed twice, and the expected ids [0, count) that are missing. */
export function exactlyOnceViolations(
  ids: number[],
  count: number,
): { doubled: number[]; missing: number[]; extra: number[] } {
  const seen = new Set<number>();
  const doubled: number[] = [];
  for (const id of ids) {
    if (seen.has(id)) doubled.push(id);
    seen.add(id);
  }
  const missing: number[] = [];
  for (let i = 0; i < count; i++) if (!seen.has(i)) missing.push(i);
  const extra = [...seen].filter((id) => !(id >= 0 && id < count));
  return { doubled, missing, extra };
}

/** The `source.kafka` positions stored in completed checkpoint `id` of the job under `root`, by split. */
export function checkpointOffsets(root: string, id: number, nodeId = 'src'): Map<string, number> | null {
  for (const job of existsSync(root) ? readdirSync(root) : []) {
    const meta = join(root, job, `chk-${id}`, '_metadata');
    if (!existsSync(meta)) continue;
    const m = JSON.parse(readFileSync(meta, 'utf8')) as {
      states: Array<{
        operatorId: string;
        operator: { state: { position?: { partitions: Record<string, { offset: number }> } } };
      }>;
    };
    const out = new Map<string, number>();
    for (const s of m.states)
      if (s.operatorId === nodeId)
        for (const [k, p] of Object.entries(s.operator.state.position?.partitions ?? {})) out.set(k, p.offset);
    return out;
  }
  return null;
}

/** The highest completed checkpoint id under a checkpoint root (0 if none): one with its `_metadata`. */
export function latestCompletedCheckpoint(root: string): number {
  let best = 0;
  for (const job of existsSync(root) ? readdirSync(root) : [])
    for (const d of readdirSync(join(root, job))) {
      const m = /^chk-(\d+)$/.exec(d);
      if (m && existsSync(join(root, job, d, '_metadata'))) best = Math.max(best, Number(m[1]));
    }
  return best;
}

/** A transactional producer that sent `values` to `topic` and left its transaction open (its process "died"). */
export async function openTransaction(
  kafka: Kafka,
  transactionalId: string,
  topic: string,
  values: string[],
): Promise<Producer> {
  const producer = kafka.producer({ transactionalId, maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  const txn = await producer.transaction();
  await txn.send({ topic, messages: values.map((value) => ({ value })) });
  return producer;
}
