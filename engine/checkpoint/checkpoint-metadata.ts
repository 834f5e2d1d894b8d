/**
 * The `_metadata` file of a filesystem checkpoint: JSON naming every state file with its sha256,
 * plus the small operator state. It is written last and atomically, so its presence is what makes
 * a checkpoint complete.
 *
 * Format v2 carries its own checksum: `checksum` (the last field) is the sha256 of the JSON text of
 * every other field, in the order written. One flipped digit anywhere (a source offset, a pending
 * transaction) makes the checkpoint unusable, with the file named. v1 files (no checksum) cannot
 * be verified and are refused with that reason. `layout` (optional, so older v2 files still load)
 * is covered by the checksum like every other field.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { SubtaskStateSnapshot } from '../contracts/checkpoint.ts';
import {
  CheckpointRestoreError,
  type CheckpointKind,
  type CheckpointLayout,
  type StateFileRef,
} from '../contracts/checkpoint-storage.ts';

export const METADATA_FORMAT = 'weir.checkpoint/v2';
const UNVERIFIABLE_FORMATS = new Set(['weir.checkpoint/v1']);

export interface CheckpointMetadata {
  format: typeof METADATA_FORMAT;
  job: string;
  id: number;
  kind: CheckpointKind;
  triggerTime: number;
  time: number;
  /** Folder of this checkpoint relative to the job root (`chk-3`, `savepoints/sp-3-...`). */
  folder: string;
  /** Full state size in bytes. */
  bytes: number;
  states: SubtaskStateSnapshot[];
  /** The job's shape when it was written (maxParallelism, state schemas); absent before it existed. */
  layout?: CheckpointLayout;
}

function checksumOf(metaText: string): string {
  return createHash('sha256').update(metaText).digest('hex');
}

/** The text of a `_metadata` file: the metadata with its checksum appended as the last field. */
export function serializeMetadata(meta: CheckpointMetadata): string {
  const text = JSON.stringify(meta);
  return `${text.slice(0, -1)},"checksum":"${checksumOf(text)}"}`;
}

export function stateFilesOf(states: readonly SubtaskStateSnapshot[]): StateFileRef[] {
  const out: StateFileRef[] = [];
  for (const s of states) for (const f of s.keyed?.files ?? []) out.push(f);
  return out;
}

export function sharedPathsOf(states: readonly SubtaskStateSnapshot[]): string[] {
  return [
    ...new Set(
      stateFilesOf(states)
        .filter((f) => f.shared)
        .map((f) => f.path),
    ),
  ];
}

/** Full size: every distinct file the checkpoint restores from plus inline state. */
export function fullBytesOf(states: readonly SubtaskStateSnapshot[]): number {
  const seen = new Map<string, number>();
  let inline = 0;
  for (const s of states) {
    for (const f of s.keyed?.files ?? []) seen.set(f.path, f.bytes);
    if (s.keyed?.inline !== undefined || s.operator !== undefined) {
      inline += jsonBytes({ inline: s.keyed?.inline, operator: s.operator });
    }
  }
  let total = inline;
  for (const b of seen.values()) total += b;
  return total;
}

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

export async function readMetadata(metadataPath: string): Promise<CheckpointMetadata> {
  let text: string;
  try {
    text = await readFile(metadataPath, 'utf8');
  } catch (err) {
    throw new CheckpointRestoreError(`cannot read checkpoint metadata ${metadataPath}: ${(err as Error).message}`);
  }
  let meta: CheckpointMetadata & { checksum?: unknown };
  try {
    meta = JSON.parse(text) as CheckpointMetadata & { checksum?: unknown };
  } catch (err) {
    throw new CheckpointRestoreError(
      `checkpoint metadata ${metadataPath} is corrupt (truncated or damaged): ${(err as Error).message}`,
    );
  }
  if (typeof meta?.format === 'string' && UNVERIFIABLE_FORMATS.has(meta.format)) {
    throw new CheckpointRestoreError(
      `checkpoint metadata ${metadataPath} has format '${meta.format}' without a checksum, ` +
        `written by an older Weir: it cannot be verified, so it is not restored. Run the job from the start.`,
    );
  }
  if (meta?.format === METADATA_FORMAT) {
    const { checksum, ...rest } = meta;
    if (typeof checksum !== 'string' || checksumOf(JSON.stringify(rest)) !== checksum) {
      throw new CheckpointRestoreError(
        `checkpoint metadata ${metadataPath} is corrupt: its checksum does not match its content`,
      );
    }
    meta = rest;
  }
  if (meta?.format !== METADATA_FORMAT || typeof meta.id !== 'number' || !Array.isArray(meta.states)) {
    throw new CheckpointRestoreError(
      `checkpoint metadata ${metadataPath} is not a Weir checkpoint (expected format '${METADATA_FORMAT}')`,
    );
  }
  return meta;
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Verifies size and checksum of one state file; the error names the file and what is wrong. */
export async function verifyStateFile(absPath: string, ref: StateFileRef): Promise<void> {
  let size: number;
  try {
    size = (await stat(absPath)).size;
  } catch {
    throw new CheckpointRestoreError(`state file ${absPath} is missing (referenced by the checkpoint metadata)`);
  }
  if (size !== ref.bytes) {
    throw new CheckpointRestoreError(
      `state file ${absPath} is corrupt: it has ${size} bytes, the checkpoint metadata records ${ref.bytes}`,
    );
  }
  const actual = await sha256OfFile(absPath);
  if (actual !== ref.sha256) {
    throw new CheckpointRestoreError(
      `state file ${absPath} is corrupt: sha256 ${actual} does not match ${ref.sha256} recorded in the checkpoint metadata`,
    );
  }
}
