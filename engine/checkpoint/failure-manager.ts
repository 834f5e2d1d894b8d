/**
 * Counts consecutive checkpoint failures against `tolerableFailures` (Flink's
 * CheckpointFailureManager). With the default 0, as in Flink, the first failed checkpoint fails the
 * job. A completed checkpoint resets the count. Savepoint failures and checkpoints aborted because
 * the tasks failed anyway do not count (the caller decides; see `countsTowardFailure`).
 */
export class CheckpointFailureManager {
  private consecutive = 0;

  constructor(
    private readonly tolerableFailures: number,
    private readonly failJob: (reason: string) => void,
  ) {}

  get consecutiveFailures(): number {
    return this.consecutive;
  }

  onSuccess(): void {
    this.consecutive = 0;
  }

  onFailure(checkpointId: number, reason: string): void {
    this.consecutive++;
    if (this.consecutive > this.tolerableFailures) {
      // Reported once per run of failures: the job fails (and may restart); counting starts over.
      this.consecutive = 0;
      const tolerated =
        this.tolerableFailures === 0
          ? 'no checkpoint failure is tolerated (checkpointing.tolerableFailures = 0)'
          : `more than ${this.tolerableFailures} consecutive checkpoint failures (checkpointing.tolerableFailures)`;
      this.failJob(`checkpoint ${checkpointId} failed and ${tolerated}: ${reason}`);
    }
  }

  reset(): void {
    this.consecutive = 0;
  }
}
