/**
 * How a sink with two-phase-commit side effects puts its output right before the tasks of a new
 * attempt start (Flink's TwoPhaseCommitSinkFunction#initializeState: commit what the restored
 * snapshot lists as pending, abort every other transaction). A connector registers one hook per
 * node type (connectors/registry.ts); the job master calls it with the operator states the restored
 * checkpoint holds for that node and never reads those states itself.
 *
 * Rules a hook keeps:
 * - It runs before any task process of the attempt exists, so nothing writes the output meanwhile.
 * - It is idempotent: a host killed during recovery runs it again with the same states.
 * - On a fresh start (`states` empty) it aborts every leftover transaction: none was committed.
 * - Hooks may be asynchronous (a database sink talks to its server); the job master awaits each.
 */
import type { JobNode, NormalizedJob } from '../graph/types.ts';

export interface SinkRecoveryContext {
  node: JobNode;
  /** The folder that relative paths in the job resolve against (the job file's folder). */
  baseDir: string;
  /** This node's own operator state per restored subtask (unwrapped), empty on a fresh start. */
  states: readonly unknown[];
  /** The job's name: transactions kept outside the run's folders (a database's) are named by it. */
  jobName: string;
}

export interface SinkRecovery extends SinkOutputHooks {
  recover(ctx: SinkRecoveryContext): void | Promise<void>;
  /**
   * The run lineage the restored states name, if the sink puts it into committed file names: a
   * restored run keeps its lineage so a commit repeated after a restore finds the same final name.
   */
  lineage?(states: readonly unknown[]): string | null;
}

/** Why a sink's output does not fit a run; the run is refused before anything was changed. */
export type SinkOutputCode = 'output_exists' | 'restore_refused';

export class SinkOutputError extends Error {
  override name = 'SinkOutputError';
  constructor(
    readonly code: SinkOutputCode,
    message: string,
    readonly folder: string,
  ) {
    super(message);
  }
}

export interface SinkOutputContext {
  node: JobNode;
  baseDir: string;
  jobName: string;
}

export interface SinkPrepareContext extends SinkOutputContext {
  /** The whole job, for sinks that check what their input writes (columns and types). */
  job: NormalizedJob;
  /** The checkpoint being restored (its id and the lineage it committed under), or null: a fresh run. */
  restored: { id: number; lineage: string } | null;
  /** This run's lineage. */
  lineage: string;
  /** The first checkpoint id this run takes (ids continue after every stored one). */
  firstId: number;
  /** A fresh run may delete what earlier runs of this job provably committed (`--clear-output`). */
  clearOutput: boolean;
  notice(message: string): void;
}

/** The change a sink's check returned; a database sink's is asynchronous. */
export type SinkOutputChange = () => void | Promise<void>;

/**
 * What a transactional sink adds to make restores exact (docs/architecture.md, "The sink manifest
 * and the restore rule"). All optional: a sink without output folders has nothing to lock or check.
 */
export interface SinkOutputHooks {
  /** The folders this sink writes: locked for the whole run (runtime/job/run-lock.ts). */
  outputFolders?(ctx: SinkOutputContext): string[];
  /**
   * Checks the sink's committed output against the restore point and returns the change to make
   * (clear, roll back, record the run). Throws SinkOutputError, having changed nothing, when the
   * output could not be made exact. Every sink is checked before any sink's change is applied.
   * A sink whose target cannot take the job's output (a database table without a column) throws
   * its own error naming the node's config field.
   */
  prepareOutput?(ctx: SinkPrepareContext): SinkOutputChange | Promise<SinkOutputChange>;
  /**
   * Before notify(n) is sent: durably records what checkpoint n's pending transactions commit
   * (`states`: this node's operator states in checkpoint n), so a later restore knows them.
   */
  recordCommits?(ctx: SinkRecoveryContext & { checkpointId: number; lineage: string }): void;
}
