/**
 * What a run may find in a file sink's folder, decided before anything is changed (the file sink's
 * SinkOutputHooks, contracts/sink-recovery.ts; the rule is in docs/architecture.md, "The sink
 * manifest and the restore rule"):
 *
 * - A fresh run (no checkpoint restored) needs a folder without committed output. Otherwise it is
 *   refused (`output_exists`) with the ways out: `--resume`, `--clear-output` (which deletes only
 *   the files the sink manifest proves this job's earlier runs committed, and is itself refused
 *   when other files are there), or another path.
 * - A restore of checkpoint k of run lineage L makes the folder hold exactly what an
 *   uninterrupted run had committed up to k: files of L committed after k (listed in the manifest,
 *   or `part-L-*-end` of a run the manifest lists) are rolled back, since the replay from k's source
 *   positions produces those records again. It is refused before anything is deleted
 *   (`restore_refused`) when exactness cannot be proven: a damaged manifest, a file of L after k
 *   that the manifest does not list, or committed output of another run of this job.
 * - Then the run's lineage is recorded; each completed checkpoint's files are recorded before the
 *   sinks are told to commit (`recordFileSinkCommits`).
 * Files whose names are not Weir's committed names are never touched.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JobNode } from '../graph/types.ts';
import {
  SinkOutputError,
  type SinkOutputCode,
  type SinkOutputContext,
  type SinkPrepareContext,
} from '../contracts/sink-recovery.ts';
import type { FileSinkState } from './file-sink.ts';
import {
  appendSinkManifest,
  MANIFEST_FORMAT,
  parseFinalName,
  readSinkManifest,
  rewriteSinkManifest,
  SinkManifestError,
  type ManifestEntry,
  type SinkManifest,
} from './sink-manifest.ts';
import { fileSink } from '../nodes/sink-file/definition.ts';

interface SinkFolder {
  nodeId: string;
  dir: string;
}

function folderOf(node: JobNode, baseDir: string): SinkFolder | null {
  return node.type === fileSink.type ? { nodeId: node.id, dir: resolve(baseDir, node.config.path) } : null;
}

export function fileSinkFolders({ node, baseDir }: SinkOutputContext): string[] {
  const f = folderOf(node, baseDir);
  return f ? [f.dir] : [];
}

/** Visible regular files: what a reader of the sink folder sees as committed output. */
function visibleFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => !n.startsWith('.') && statSync(join(dir, n), { throwIfNoEntry: false })?.isFile()).sort();
}

function manifestOf(folder: SinkFolder, code: SinkOutputCode, what: string): SinkManifest | null {
  try {
    return readSinkManifest(folder.dir);
  } catch (e) {
    if (!(e instanceof SinkManifestError)) throw e;
    throw new SinkOutputError(
      code,
      `${what}: sink '${folder.nodeId}': ${e.message}, so Weir cannot prove which files it ` +
        `committed there. Nothing was changed. Move the folder's files away (or use another path) and run from the start.`,
      folder.dir,
    );
  }
}

/** Is `name` provably committed by this job (listed, or an end-of-input file of a listed run)? */
function provablyOurs(m: SinkManifest | null, name: string): boolean {
  if (!m) return false;
  if (m.files.has(name)) return true;
  const p = parseFinalName(name);
  return p !== null && p.checkpoint === 'end' && m.lineages.has(p.lineage);
}

function list(names: string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/** Checks the folder (throwing before any change) and returns the change: clear or roll back, then record the run. */
export function prepareFileSinkOutput(ctx: SinkPrepareContext): () => void {
  const folder = folderOf(ctx.node, ctx.baseDir);
  if (!folder) return () => {};
  const files = visibleFiles(folder.dir);
  const { restored, lineage, jobName } = ctx;
  const { remove, manifest } =
    restored === null
      ? planFresh(jobName, folder, files, ctx.clearOutput)
      : planRestore(folder, files, restored.id, restored.lineage);
  return () => {
    // Said before the files go, and kept: an older checkpoint restored later must find out (planRestore).
    const undo = restored !== null ? undoEntry(remove, restored.lineage, ctx.firstId) : null;
    if (undo) appendSinkManifest(folder.dir, jobName, [undo]);
    for (const name of remove) rmSync(join(folder.dir, name), { force: true });
    if (restored === null) {
      // A fresh run starts an empty folder's record anew (old entries name files that are gone).
      mkdirSync(folder.dir, { recursive: true });
      rewriteSinkManifest(folder.dir, [
        { kind: 'header', format: MANIFEST_FORMAT, job: jobName },
        { kind: 'run', lineage },
      ]);
      if (remove.length > 0) {
        ctx.notice(
          `sink '${folder.nodeId}': --clear-output removed ${remove.length} file(s) earlier runs of job '${jobName}' committed`,
        );
      }
      return;
    }
    if (manifest && remove.length > 0) {
      const gone = new Set(remove);
      rewriteSinkManifest(folder.dir, [
        ...manifest.entries
          .filter((e) => e.kind !== 'commit' || e.files.some((f) => !gone.has(f)))
          .map((e) => (e.kind === 'commit' ? { ...e, files: e.files.filter((f) => !gone.has(f)) } : e)),
        ...(undo ? [undo] : []),
      ]);
      ctx.notice(
        `sink '${folder.nodeId}': rolled back ${remove.length} file(s) committed after checkpoint ${restored.id} ` +
          `(the restore produces their records again): ${list(remove)}`,
      );
    }
    if (!manifest?.lineages.has(lineage)) {
      mkdirSync(folder.dir, { recursive: true });
      appendSinkManifest(folder.dir, jobName, [{ kind: 'run', lineage }]);
    }
  };
}

/** The manifest entry a rollback of `remove` appends; null when no checkpoint's files go (only end-of-input ones). */
function undoEntry(remove: string[], lineage: string, before: number): ManifestEntry | null {
  const checkpoints = new Set<number>();
  for (const f of remove) {
    const c = parseFinalName(f)?.checkpoint;
    if (typeof c === 'number') checkpoints.add(c);
  }
  if (checkpoints.size === 0) return null;
  return { kind: 'undo', lineage, checkpoints: [...checkpoints].sort((a, b) => a - b), before };
}

function planFresh(
  jobName: string,
  folder: SinkFolder,
  files: string[],
  clear: boolean,
): { remove: string[]; manifest: SinkManifest | null } {
  if (files.length === 0) return { remove: [], manifest: null };
  const options =
    `Choose one: --resume to continue from the latest checkpoint (Resume in the app), --clear-output to delete ` +
    `the files earlier runs of this job committed there, or another sink path.`;
  if (!clear) {
    throw new SinkOutputError(
      'output_exists',
      `sink '${folder.nodeId}': ${folder.dir} already holds committed output ` +
        `(${files.length} file(s): ${list(files)}); a fresh run would add a second copy. Nothing was changed. ${options}`,
      folder.dir,
    );
  }
  const manifest = manifestOf(folder, 'output_exists', '--clear-output refused');
  const foreign = files.filter((f) => !provablyOurs(manifest && manifest.job === jobName ? manifest : null, f));
  if (foreign.length > 0) {
    throw new SinkOutputError(
      'output_exists',
      `--clear-output refused: sink '${folder.nodeId}': ${folder.dir} holds ` +
        `${foreign.length} file(s) that no earlier run of job '${jobName}' committed (${list(foreign)}); Weir deletes only ` +
        `what it wrote. Nothing was changed. Move them away or use another sink path.`,
      folder.dir,
    );
  }
  return { remove: files, manifest };
}

function planRestore(
  folder: SinkFolder,
  files: string[],
  k: number,
  lineage: string,
): { remove: string[]; manifest: SinkManifest | null } {
  const manifest = manifestOf(folder, 'restore_refused', `cannot restore checkpoint ${k} exactly`);
  const hole = manifest?.undone.find((u) => u.lineage === lineage && k < u.before && u.checkpoints.some((c) => c <= k));
  if (hole) {
    const lost = hole.checkpoints.filter((c) => c <= k);
    throw new SinkOutputError(
      'restore_refused',
      `cannot restore checkpoint ${k} exactly: sink '${folder.nodeId}': the files of checkpoint(s) ${lost.join(', ')}, ` +
        `which checkpoint ${k} counts as written, were rolled back when a later run restored an older checkpoint ` +
        `(that run's checkpoints start at ${hole.before}); their records would be missing. Nothing was changed. ` +
        `Restore a checkpoint numbered ${hole.before} or higher, or one older than ${Math.min(...lost)}, or run from the start.`,
      folder.dir,
    );
  }
  const remove: string[] = [];
  const unproven: string[] = [];
  const otherRuns: string[] = [];
  for (const f of files) {
    const p = parseFinalName(f);
    if (!p) continue; // not a name Weir commits: not ours, not touched
    if (p.lineage !== lineage) {
      if (manifest?.lineages.has(p.lineage)) otherRuns.push(f);
      continue;
    }
    if (p.checkpoint !== 'end' && p.checkpoint <= k) continue;
    if (provablyOurs(manifest, f)) remove.push(f);
    else unproven.push(f);
  }
  if (unproven.length > 0) {
    throw new SinkOutputError(
      'restore_refused',
      `cannot restore checkpoint ${k} exactly: sink '${folder.nodeId}' holds ` +
        `${unproven.length} file(s) committed after it that its manifest does not list (${list(unproven)}), so Weir cannot ` +
        `prove it wrote them. Nothing was changed. Move them away and restore again, or run from the start into another path.`,
      folder.dir,
    );
  }
  if (otherRuns.length > 0) {
    throw new SinkOutputError(
      'restore_refused',
      `cannot restore checkpoint ${k} exactly: sink '${folder.nodeId}' holds output ` +
        `of another run of this job (${list(otherRuns)}), which the restored run would duplicate. Nothing was changed. Use ` +
        `another sink path, or move those files away.`,
      folder.dir,
    );
  }
  return { remove, manifest };
}

/** Before notify(n): records the files checkpoint n's pending transactions commit to. */
export function recordFileSinkCommits(ctx: {
  node: JobNode;
  baseDir: string;
  jobName: string;
  checkpointId: number;
  lineage: string;
  states: readonly unknown[];
}): void {
  const folder = folderOf(ctx.node, ctx.baseDir);
  if (!folder) return;
  const states = ctx.states as ReadonlyArray<Partial<FileSinkState> | undefined>;
  const finals = new Set<string>();
  let lineage: string | null = null;
  for (const s of states) {
    if (!s || !Array.isArray(s.pending)) continue;
    if (typeof s.lineage === 'string') lineage = s.lineage;
    for (const t of s.pending) finals.add(t.final);
  }
  if (finals.size === 0) return;
  appendSinkManifest(folder.dir, ctx.jobName, [
    { kind: 'commit', lineage: lineage ?? ctx.lineage, checkpoint: ctx.checkpointId, files: [...finals] },
  ]);
}
