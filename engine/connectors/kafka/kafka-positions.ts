/**
 * The position Sn of a `source.kafka` subtask, as its checkpoints store it: per partition it owns,
 * keyed by topic and partition (`orders:3`, never by subtask), the offset of the next record to
 * read, the partition's largest event time so far (its watermark resumes there) and, when bounded,
 * the offset it stops at (fixed when the job first started, so a restored job ends where it would
 * have). A restore takes the union over every restored subtask: any parallelism reads it.
 */
export interface KafkaPartitionPosition {
  offset: number;
  maxTimestamp: number | null;
  stop?: number;
}

export interface KafkaSourcePositions {
  partitions: Record<string, KafkaPartitionPosition>;
}

export function restoredKafkaPositions(restored: readonly unknown[]): Map<string, KafkaPartitionPosition> {
  const out = new Map<string, KafkaPartitionPosition>();
  for (const r of restored) {
    const parts = (r as Partial<KafkaSourcePositions> | undefined)?.partitions;
    for (const [id, p] of Object.entries(parts ?? {})) out.set(id, { ...p });
  }
  return out;
}
