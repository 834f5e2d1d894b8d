/**
 * Whether a failed attempt is followed by another (Flink's fixed-delay restart strategy):
 * `settings.restart.attempts` restarts per run, each after `settings.restart.delay` ms; after
 * that the job fails with the cause and why it gave up.
 */
import type { JobSettings } from '../../graph/types.ts';

export type RestartDecision = { restart: true; delay: number } | { restart: false; cause: string };

export class RestartPolicy {
  private count = 0;

  constructor(private readonly settings: JobSettings['restart']) {}

  /** Restarts so far. */
  get restarts(): number {
    return this.count;
  }

  /** After a failure with `cause`: counts a restart and returns its delay, or the job's final cause. */
  next(cause: string): RestartDecision {
    const allowed = this.settings.attempts;
    if (this.count >= allowed) {
      const tried =
        allowed === 0
          ? 'restarts are disabled (settings.restart.attempts = 0)'
          : `gave up after ${this.count} restart${this.count === 1 ? '' : 's'} (settings.restart.attempts = ${allowed})`;
      return { restart: false, cause: `${cause}; ${tried}` };
    }
    this.count++;
    return { restart: true, delay: this.settings.delay };
  }
}
