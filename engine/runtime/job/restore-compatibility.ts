/**
 * Stage 5b of starting a run (job-runner.ts): the restored checkpoint checked against the job as it
 * is now, before anything changes (Flink's rules on restoring state, and more). Refused, naming the
 * node and what changed:
 * - another `maxParallelism`: keyed state is split into that many key groups and cannot be re-split;
 * - a node whose state the checkpoint holds but the job no longer has, unless
 *   `allowNonRestoredState` (`--allow-non-restored-state`), which drops that state and says so;
 * - a node whose state layout changed (key columns, window spec, aggregates, join condition): old
 *   and new state would mix (restore-layout.ts says which settings count);
 * - a transactional sink whose target (file folder, PostgreSQL table) changed while the checkpoint
 *   lists pending transactions for the old one: they would be committed nowhere, or where the new
 *   job no longer writes, and its restore would not be exact;
 * - a file source whose input is not the one read (restore-inputs.ts).
 * A checkpoint of an older version carries no layout: maxParallelism is then read from its key
 * group ranges, and layout checks it cannot make are skipped.
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { SubtaskStateSnapshot } from '../../contracts/checkpoint.ts';
import type { CompletedCheckpoint } from '../../contracts/checkpoint-storage.ts';
import type { WrappedOperatorState } from '../common/state-assignment.ts';
import { JobStartError, NonRestoredStateError } from './errors.ts';
import { schemaChanges, stateSchemaOf } from './restore-layout.ts';
import { inputProblems } from './restore-inputs.ts';
import { definitionOf } from '../../graph/node-types.ts';

export interface CompatibilityOptions {
  /** Drop the state of nodes the job no longer has instead of refusing (Flink's allowNonRestoredState). */
  allowNonRestoredState?: boolean;
}

export function checkRestoreCompatibility(
  job: NormalizedJob,
  restored: CompletedCheckpoint | null,
  opts: CompatibilityOptions,
  notice: (message: string) => void,
): void {
  if (restored === null) return;
  const refusal = (what: string, fix: string) =>
    `cannot restore checkpoint ${restored.id} of job '${job.name}': ${what}. Nothing was changed. ${fix}`;
  const refuse = (what: string, fix: string): never => {
    throw new JobStartError(refusal(what, fix));
  };
  const maxP = restoredMaxParallelism(restored);
  if (maxP !== null && maxP !== job.settings.maxParallelism) {
    refuse(
      `it was taken with maxParallelism ${maxP} and the job now has ${job.settings.maxParallelism}; keyed state ` +
        `is split into ${maxP} key groups and cannot be split into another number`,
      `Set settings.maxParallelism back to ${maxP}, or run the job from the start.`,
    );
  }
  const dropped = statefulNodesMissing(job, restored.states);
  if (dropped.length > 0) {
    const list = dropped.map((id) => `'${id}'`).join(', ');
    if (!opts.allowNonRestoredState) {
      throw new NonRestoredStateError(
        refusal(
          `it holds state of node(s) ${list} that the job no longer has`,
          `Put the node(s) back, or restore with --allow-non-restored-state to drop that state.`,
        ),
        dropped,
      );
    }
    notice(`restoring checkpoint ${restored.id} without the state of node(s) ${list}, which the job no longer has`);
  }
  const changed = layoutChanges(job, restored);
  if (changed.length > 0) {
    refuse(
      `the state layout of ${changed.join('; ')}`,
      `Change the node(s) back, give a changed node a new id (its state then starts empty, with --allow-non-restored-state), or run from the start.`,
    );
  }
  const stranded = strandedSinkTransactions(job, restored);
  if (stranded.length > 0) {
    refuse(
      stranded.join('; '),
      `Restore with the sink's old target so they are committed there, then change it; or run from the start.`,
    );
  }
  const inputs = inputProblems(job, restored.states);
  if (inputs.length > 0) {
    refuse(
      inputs.join('; '),
      `Put the original input back, or run the job from the start (without --resume or --from).`,
    );
  }
}

/** As stored, or else the key group count the keyed state was split into (older checkpoints). */
function restoredMaxParallelism(restored: CompletedCheckpoint): number | null {
  if (restored.layout) return restored.layout.maxParallelism;
  let end = -1;
  for (const s of restored.states) if (s.keyed) end = Math.max(end, s.keyed.keyGroupRange.end);
  return end >= 0 ? end + 1 : null;
}

function holdsState(s: SubtaskStateSnapshot): boolean {
  const keyed = s.keyed;
  if (keyed && ((keyed.files?.length ?? 0) > 0 || keyed.inline !== undefined)) return true;
  const own = (s.operator as WrappedOperatorState | undefined)?.state;
  return own !== undefined && own !== null;
}

function statefulNodesMissing(job: NormalizedJob, states: readonly SubtaskStateSnapshot[]): string[] {
  const ids = new Set(job.nodes.map((n) => n.id));
  return [...new Set(states.filter((s) => !ids.has(s.operatorId) && holdsState(s)).map((s) => s.operatorId))].sort();
}

/** `node 'win' changed: window: {...} → {...}` per node whose state schema differs. */
function layoutChanges(job: NormalizedJob, restored: CompletedCheckpoint): string[] {
  const out: string[] = [];
  for (const node of job.nodes) {
    const before = restored.layout?.nodes[node.id];
    // A sink's target is checked against its pending transactions (strandedSinkTransactions).
    if (!before || definitionOf(node).transactional) continue;
    const now = stateSchemaOf(node);
    if (before.type !== node.type || now === null) {
      out.push(`node '${node.id}' changed: it was a ${before.type} and is now a ${node.type}`);
      continue;
    }
    const changes = schemaChanges(before.schema, now);
    if (changes.length > 0) out.push(`node '${node.id}' changed: ${changes.join(', ')}`);
  }
  return out;
}

/** What a transactional sink's snapshot lists as pending (file-sink.ts, postgres/sink-operator.ts). */
interface PendingTransaction {
  checkpointId: number;
  records: number;
  /** File sink: the hidden folder the transaction's files wait in. */
  dir?: string;
  /** PostgreSQL: the prepared transaction's global id. */
  gid?: string;
}

/** Pending transactions of a sink whose target changed since the checkpoint, listed. */
function strandedSinkTransactions(job: NormalizedJob, restored: CompletedCheckpoint): string[] {
  const out: string[] = [];
  for (const node of job.nodes) {
    const before = restored.layout?.nodes[node.id];
    const now = stateSchemaOf(node);
    if (!definitionOf(node).transactional || !before || before.type !== node.type || now === null) continue;
    const changed = Object.keys(now).filter((k) => JSON.stringify(before.schema[k]) !== JSON.stringify(now[k]));
    if (changed.length === 0) continue;
    const show = (v: unknown) => `'${String(v)}'`;
    const pending = restored.states
      .filter((s) => s.operatorId === node.id)
      .flatMap(
        (s) =>
          ((s.operator as WrappedOperatorState | undefined)?.state as { pending?: PendingTransaction[] } | undefined)
            ?.pending ?? [],
      );
    if (pending.length === 0) continue;
    const list = pending
      .map((t) => `${t.dir ?? t.gid ?? '?'} (${t.records} records of checkpoint ${t.checkpointId})`)
      .join(', ');
    out.push(
      `sink '${node.id}' now writes to ${changed.map((k) => show(now[k])).join(', ')}, but the checkpoint lists ` +
        `${pending.length} pending transaction(s) for ${changed.map((k) => show(before.schema[k])).join(', ')}: ${list}`,
    );
  }
  return out;
}
