/**
 * How a host (the CLI, the Electron main process, `weir serve`) starts and controls one job run.
 * The host side plans the job, runs the checkpoint coordinator and launches the task process;
 * records reach the host only as previews (preview sinks, edge samples).
 * Implemented by `job-runner.ts` (`startJob`, which hands the run to a `JobMaster`).
 */
import type { NormalizedJob } from '../../graph/types.ts';
import type { CheckpointStats, RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import type { JobStatus, RunEvent } from '../../contracts/run-events.ts';
import type { OutputPort } from '../../contracts/operator.ts';

export type { RunEvent };

/** A child process running tasks: `child_process.fork` in the CLI, `utilityProcess` in Electron. */
export interface TaskProcessHandle {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone, with its exit code or signal. */
  onExit(listener: (info: { code: number | null; signal: string | null }) => void): void;
  kill(signal?: 'SIGKILL' | 'SIGTERM'): void;
  readonly pid: number | undefined;
  /**
   * Each line the process writes to stderr (a crash's stack, a native module's warning), so the
   * UI's log can show it. Optional: a launcher that cannot capture stderr leaves it out. The lines
   * still reach the host's own stderr.
   */
  onStderr?(listener: (line: string) => void): void;
}

export interface TaskLauncher {
  launch(): TaskProcessHandle;
}

export interface StartJobOptions {
  job: NormalizedJob;
  /** Continue from the latest retained checkpoint (fs/rocksdb; memory refuses: its checkpoints die with the process). */
  resume?: boolean;
  /** Restore a chosen checkpoint or savepoint folder. */
  from?: string;
  /**
   * A fresh run whose sink folders hold committed output of this job's earlier runs deletes those
   * files first (only those the sink manifest lists); without it such a run is refused.
   */
  clearOutput?: boolean;
  /**
   * A restore drops the state of nodes the job no longer has instead of refusing
   * (`--allow-non-restored-state`; restore-compatibility.ts).
   */
  allowNonRestoredState?: boolean;
  /** Defaults to a `child_process.fork` launcher. */
  launcher?: TaskLauncher;
  onEvent?: (event: RunEvent) => void;
  /** Metrics cadence in ms (default 250). */
  metricsInterval?: number;
  /** Fault injection for crash tests only (test/support/weir-with-faults.ts); hosts leave it out. */
  faults?: JobFaults;
}

/**
 * Hooks a crash test passes in to fail a run at a chosen moment. No product host sets them and no
 * environment variable reaches them: a test starts the CLI through its own entry with the hook.
 */
export interface JobFaults {
  /**
   * Checkpoint n is stored (its metadata durable) and nothing of its commit has happened yet: its
   * commits are not recorded and the tasks are not notified, so its sink transactions are only
   * pre-committed. A test that kills the host here proves restores commit them exactly once.
   */
  beforeNotify?(checkpointId: number): void;
}

export interface JobResult {
  status: Extract<JobStatus, 'finished' | 'stopped' | 'failed' | 'canceled'>;
  cause?: string;
  savepoint?: string;
  restarts: number;
}

export interface JobHandle {
  readonly status: JobStatus;
  readonly done: Promise<JobResult>;
  /** Stop; with `savepoint` take one first and return its path. */
  stop(opts?: { savepoint?: boolean }): Promise<{ savepoint?: string }>;
  triggerSavepoint(): Promise<{ path: string; id: number }>;
  /** SIGKILL the task process (fault injection); the job restarts per its restart policy. */
  killTaskProcess(): void;
  checkpointHistory(): CheckpointStats[];
  /**
   * Edge samples on or off for one output port of one node: its subtasks then report the newest
   * records they emit there as `preview` events targeted `edge:<nodeId>.<port>#<subtask>`. Kept
   * across restarts. Throws SampleEdgeError (errors.ts) when the node has no such output.
   */
  sampleEdge(req: { nodeId: string; port: OutputPort; on: boolean }): void;
}

export type { RetainedCheckpoint };
