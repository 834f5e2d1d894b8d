/**
 * The host API, defined once: a zod schema for every request (request-schemas.ts), result
 * (result-schemas.ts) and event (event-schemas.ts), and the error codes here. The TypeScript types
 * of `EngineHost` (api.ts) are inferred from these, so the API cannot drift from what the
 * transports validate; the engine's own contract types (checkpoint stats, metrics, run events)
 * are pinned to their schemas at compile time below. Browser-safe.
 *
 * Requests are strict (an unknown field is a client bug worth hearing about); results and events
 * are plain objects (unknown fields are dropped on the page side).
 */
import { z } from 'zod';
import type { JobProblem } from '../../graph/types.ts';
import type { CheckpointStats, RetainedCheckpoint } from '../../contracts/checkpoint.ts';
import type { OperatorMetrics, RunEvent } from '../../contracts/run-events.ts';
import { hostEventSchema, operatorMetrics } from './event-schemas.ts';
import { retained } from './result-schemas.ts';
import { checkpointStats, problem } from './schema-fields.ts';

export { requestSchemas } from './request-schemas.ts';
export { resultSchemas } from './result-schemas.ts';
export { APP_COMMANDS, hostEventSchema } from './event-schemas.ts';

/** Every failure crosses a transport as one of these codes (`HostError`, errors.ts). */
export const HOST_ERROR_CODES = [
  'invalid_request',
  'invalid_job',
  'not_found',
  'forbidden_path',
  'job_not_running',
  'already_running',
  'io_error',
  'internal',
  'unsupported',
  /** A fresh run's sink folder holds committed output: the UI offers Resume, Clear output, Cancel. */
  'output_exists',
  /** A restore cannot be proven exact (or a checkpoint folder holds foreign files): nothing changed. */
  'restore_refused',
  /**
   * A restore would drop the state of nodes the job no longer has: `problems` names each (`nodeId`);
   * the UI asks, and runs again with `allowNonRestoredState` to drop it.
   */
  'non_restored_state',
] as const;

export const hostErrorSchema = z.object({
  code: z.enum(HOST_ERROR_CODES),
  message: z.string(),
  problems: z.array(problem).optional(),
});

// ---- the engine's contract types, pinned to their schemas -------------------------------------

/** true when A and B are assignable both ways; anything else fails to compile below. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type TaggedRunEvent = RunEvent extends infer E ? (E extends RunEvent ? E & { runId: string } : never) : never;
type HostEventOutput = z.output<typeof hostEventSchema>;

export const _pinned: [
  Same<z.output<typeof checkpointStats>, CheckpointStats>,
  Same<z.output<typeof retained>, RetainedCheckpoint>,
  Same<z.output<typeof operatorMetrics>, OperatorMetrics>,
  Same<z.output<typeof problem>, JobProblem>,
  Same<Exclude<HostEventOutput, { type: 'app.command' } | { type: 'flink.run' }>, TaggedRunEvent>,
] = [true, true, true, true, true];
