/**
 * What the task runtime gives operator factories beyond the StreamOperator contract: the run's
 * lineage (stable across restores, used for deterministic sink file names), whether checkpointing
 * is on (2PC sinks commit on checkpoints, else at end of input), and the host-bound side channels.
 */
export interface OperatorServices {
  lineage: string;
  attempt: number;
  checkpointing: boolean;
  sendPreview(target: string, records: unknown[]): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
}

/** Optional: operators that hold uncommitted output report it in metrics. */
export interface PendingOutputReporter {
  pendingOutput(): { records: number; files: number };
}
