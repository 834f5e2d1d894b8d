/**
 * The transactional ids of an exactly-once `sink.kafka` (browser-safe: the exporter uses it too).
 * `<prefix>-s<subtask>-<instance>-<n>`: `instance` is random per task process and `n` counts its
 * transactions, so no id is ever used for two transactions and a later process never reuses an id a
 * checkpoint lists. Recovery finds every transaction of the sink by this shape (belongsToSink).
 */

/** How long a prepared transaction may wait for its commit: the broker's default cap (15 min). */
export const TRANSACTION_TIMEOUT_MS = 900_000;

/** The Flink SQL export's comment on a default prefix; the importer then leaves the prefix out. */
export const DEFAULT_PREFIX_NOTE = "is Weir's default for this job and node";

/** `weir-<job>-<node>`, the prefix when the config names none. */
export function defaultTransactionalIdPrefix(jobName: string, nodeId: string): string {
  return `weir-${jobName}-${nodeId}`;
}

export function transactionalIdOf(prefix: string, subtask: number, instance: string, n: number): string {
  return `${prefix}-s${subtask}-${instance}-${n}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `transactionalId` is one this sink's prefix names (and not another sink's longer prefix). */
export function belongsToSink(prefix: string, transactionalId: string): boolean {
  return new RegExp(`^${escapeRegExp(prefix)}-s\\d+-[0-9a-f]{8}-\\d+$`).test(transactionalId);
}
