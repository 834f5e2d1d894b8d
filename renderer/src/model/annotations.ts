/**
 * Groups (labelled frames around nodes) and sticky notes: designer annotations saved in the
 * document and ignored by the engine. Pure functions on the job, like ops.ts; every one returns the
 * same job object when nothing changes (so a no-op is no undo step).
 *
 * Rules:
 * - A group's frame is computed from its members' positions and sizes (groupFrame); it stores none.
 * - A group lists only nodes that exist: removing nodes prunes them, and a group left empty goes.
 */
import type { JobDocument, JobGroup, JobNote, Position } from '../../../engine/graph/types.ts';
import { uniqueId } from './ops.ts';

export const NOTE_SIZE = { width: 220, height: 110 };
/** Space between a group's frame and its members (room for the label above them). */
export const GROUP_PAD = { x: 20, top: 40, bottom: 26 };

const taken = (job: JobDocument) =>
  new Set([...(job.groups ?? []).map((g) => g.id), ...(job.notes ?? []).map((n) => n.id)]);

export function addNote(job: JobDocument, at: Position, text = ''): { job: JobDocument; id: string } {
  const id = uniqueId('note', taken(job));
  const note: JobNote = { id, text, position: { x: Math.round(at.x), y: Math.round(at.y) } };
  return { job: { ...job, notes: [...(job.notes ?? []), note] }, id };
}

function patchNote(job: JobDocument, id: string, patch: (n: JobNote) => JobNote): JobDocument {
  let changed = false;
  const notes = (job.notes ?? []).map((n) => {
    if (n.id !== id) return n;
    const next = patch(n);
    if (next !== n) changed = true;
    return next;
  });
  return changed ? { ...job, notes } : job;
}

export function setNoteText(job: JobDocument, id: string, text: string): JobDocument {
  return patchNote(job, id, (n) => (n.text === text ? n : { ...n, text }));
}

export function setNoteSize(job: JobDocument, id: string, size: { width: number; height: number }): JobDocument {
  const w = Math.round(size.width);
  const h = Math.round(size.height);
  return patchNote(job, id, (n) => (n.width === w && n.height === h ? n : { ...n, width: w, height: h }));
}

export function moveNotes(job: JobDocument, positions: ReadonlyMap<string, Position>): JobDocument {
  if (!job.notes?.length || positions.size === 0) return job;
  let changed = false;
  const notes = job.notes.map((n) => {
    const p = positions.get(n.id);
    if (!p) return n;
    const r = { x: Math.round(p.x), y: Math.round(p.y) };
    if (n.position.x === r.x && n.position.y === r.y) return n;
    changed = true;
    return { ...n, position: r };
  });
  return changed ? { ...job, notes } : job;
}

export function removeNote(job: JobDocument, id: string): JobDocument {
  if (!job.notes?.some((n) => n.id === id)) return job;
  const { notes: _old, ...rest } = job;
  const notes = job.notes.filter((n) => n.id !== id);
  // An empty list is left out of the file, as if notes had never been used.
  return notes.length ? { ...rest, notes } : rest;
}

export function addGroup(
  job: JobDocument,
  nodeIds: Iterable<string>,
  label?: string,
): { job: JobDocument; id: string | null } {
  const exists = new Set(job.nodes.map((n) => n.id));
  const members = [...nodeIds].filter((id) => exists.has(id));
  if (members.length === 0) return { job, id: null };
  const id = uniqueId('group', taken(job));
  const group: JobGroup = { id, label: label ?? `Group ${(job.groups?.length ?? 0) + 1}`, nodes: members };
  return { job: { ...job, groups: [...(job.groups ?? []), group] }, id };
}

export function setGroupLabel(job: JobDocument, id: string, label: string): JobDocument {
  let changed = false;
  const groups = (job.groups ?? []).map((g) => {
    if (g.id !== id || g.label === label) return g;
    changed = true;
    return { ...g, label };
  });
  return changed ? { ...job, groups } : job;
}

export function removeGroup(job: JobDocument, id: string): JobDocument {
  if (!job.groups?.some((g) => g.id === id)) return job;
  const { groups: _old, ...rest } = job;
  const groups = job.groups.filter((g) => g.id !== id);
  return groups.length ? { ...rest, groups } : rest;
}

/** Drop member ids that are no longer nodes, and groups left empty (after a delete). */
export function pruneGroups(job: JobDocument): JobDocument {
  if (!job.groups?.length) return job;
  const exists = new Set(job.nodes.map((n) => n.id));
  let changed = false;
  const groups: JobGroup[] = [];
  for (const g of job.groups) {
    const nodes = g.nodes.filter((id) => exists.has(id));
    if (nodes.length !== g.nodes.length) changed = true;
    if (nodes.length) groups.push(nodes.length === g.nodes.length ? g : { ...g, nodes });
  }
  if (!changed) return job;
  const { groups: _old, ...rest } = job;
  return groups.length ? { ...rest, groups } : rest;
}

export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The frame around a group's members (positions and measured sizes), or null when none is drawn. */
export function groupFrame(
  job: JobDocument,
  group: JobGroup,
  sizes: ReadonlyMap<string, { width: number; height: number }>,
  fallback: { width: number; height: number },
): Frame | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const members = new Set(group.nodes);
  for (const n of job.nodes) {
    if (!members.has(n.id) || !n.position) continue;
    const s = sizes.get(n.id) ?? fallback;
    x0 = Math.min(x0, n.position.x);
    y0 = Math.min(y0, n.position.y);
    x1 = Math.max(x1, n.position.x + s.width);
    y1 = Math.max(y1, n.position.y + s.height);
  }
  if (!Number.isFinite(x0)) return null;
  return {
    x: x0 - GROUP_PAD.x,
    y: y0 - GROUP_PAD.top,
    width: x1 - x0 + 2 * GROUP_PAD.x,
    height: y1 - y0 + GROUP_PAD.top + GROUP_PAD.bottom,
  };
}
