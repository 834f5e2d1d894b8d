/**
 * Part of stage 5b (restore-compatibility.ts): every bounded file source's restored positions
 * checked against the files there now (connectors/file-positions.ts). A moved or re-spelled job
 * folder finds the same files by name and the same bytes, so it resumes exactly; a file that is
 * gone, shorter than what was read, or with other bytes before the offset is another input, and
 * resuming in the middle of it would be neither the old run nor a new one. A `follow` source is
 * not refused: it reads a replaced file from its start (file-source.ts).
 */
import { resolve } from 'node:path';
import { statSync } from 'node:fs';
import type { NormalizedJob } from '../../graph/types.ts';
import type { SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import {
  fileOfKey,
  inputMismatch,
  parseSplitKey,
  restoredPositions,
  SINGLE_FILE_KEY,
} from '../../connectors/file-positions.ts';
import type { WrappedOperatorState } from '../common/state-assignment.ts';
import { fileSource } from '../../nodes/source-file/definition.ts';

/** One line per source whose input differs: `source 'src' reads another input: <reason>`. */
export function inputProblems(job: NormalizedJob, states: readonly SubtaskStateSnapshot[]): string[] {
  const baseDir = job.baseDir ?? process.cwd();
  const out: string[] = [];
  for (const node of job.nodes) {
    if (node.type !== fileSource.type || node.config.follow) continue;
    const root = resolve(baseDir, node.config.path);
    const positions = states
      .filter((s) => s.operatorId === node.id)
      .map(
        (s) =>
          ((s.operator as WrappedOperatorState | undefined)?.state as { position?: unknown } | undefined)?.position,
      );
    let inFolder: boolean;
    try {
      inFolder = statSync(root).isDirectory();
    } catch {
      continue; // stage 1 (run-paths.ts) refuses a missing input with its own message
    }
    const reasons: string[] = [];
    for (const [key, p] of restoredPositions(positions, inFolder)) {
      if (p.offset === 0) continue; // nothing read yet: any file is fine
      if ((parseSplitKey(key).fileKey === SINGLE_FILE_KEY) === inFolder) {
        reasons.push(
          `it read ${inFolder ? 'one file' : 'a folder'} and now reads ${inFolder ? 'a folder' : 'one file'}`,
        );
        break;
      }
      const reason = inputMismatch(fileOfKey(root, inFolder, key), p);
      if (reason !== null) reasons.push(reason);
    }
    if (reasons.length > 0)
      out.push(`source '${node.id}' reads another input than the checkpoint: ${reasons.join(', ')}`);
  }
  return out;
}
