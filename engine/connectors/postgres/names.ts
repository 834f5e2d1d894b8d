/**
 * Names a CDC source creates in the database: its replication slot and its publication. Slot names
 * are at most 63 characters of [a-z0-9_] (PostgreSQL's rule); a long job or node id is cut and a
 * hash of the whole keeps two long names apart. Browser-safe (the export names the slot too).
 */

const MAX = 63;

/** FNV-1a, 32 bits: stable everywhere, enough to tell two cut names apart. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function defaultSlotName(jobName: string, nodeId: string): string {
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  const full = `weir_${clean(jobName)}_${clean(nodeId)}`;
  if (full.length <= MAX) return full;
  return `${full.slice(0, MAX - 9)}_${fnv1a(`${jobName}\0${nodeId}`)}`;
}

/** One publication per slot, so two jobs reading different tables never change each other's. */
export function publicationName(slot: string): string {
  return slot;
}
