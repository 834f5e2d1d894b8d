/**
 * The host API's "Run on Flink" part (schemas.ts holds the method list): the settings it keeps
 * (Electron: electron-store; `weir serve`: a file in the workspace), where a job runs (Weir's
 * runner on a local MiniCluster, or a Flink SQL Gateway), and the `flink.run` event that carries
 * what Flink reports. Browser-safe.
 *
 * A Flink run's events are snapshots: each carries everything known of the run so far (job id,
 * state, vertices with records in/out, completed checkpoints, failures), so a page that missed one
 * or opened late shows the same as one that heard them all. The last one has `phase: 'ended'`.
 */
import { z } from 'zod';

/** The Flink lines Weir's runner is built for (`weir flink run --flink-version`). */
export const FLINK_VERSIONS = ['1.20', '2.x'] as const;
export const flinkVersion = z.enum(FLINK_VERSIONS);
export const flinkTargetKind = z.enum(['local', 'gateway']);

/** A Flink SQL Gateway's REST address, as `weir flink run --gateway` takes it. */
export const gatewayUrl = z
  .string()
  .max(2000)
  .regex(/^https?:\/\/[^/\s]+\S*$/i, 'an http(s) URL such as http://localhost:8083');

export const flinkSettingsSchema = z.strictObject({
  target: flinkTargetKind,
  /** '' until the user names one. */
  gatewayUrl: z.union([z.literal(''), gatewayUrl]),
  flinkVersion,
  parallelism: z.number().int().min(1).max(64),
});
export type FlinkSettings = z.output<typeof flinkSettingsSchema>;

export const DEFAULT_FLINK_SETTINGS: FlinkSettings = {
  target: 'local',
  gatewayUrl: '',
  flinkVersion: '1.20',
  parallelism: 1,
};

/** What the app keeps between starts through the host (only Run on Flink's choices so far). */
export const hostSettingsSchema = z.strictObject({ flink: flinkSettingsSchema });
export type HostSettings = z.output<typeof hostSettingsSchema>;

export const flinkTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('local') }),
  z.strictObject({ kind: z.literal('gateway'), url: gatewayUrl }),
]);

const flinkVertex = z.object({
  id: z.string(),
  name: z.string(),
  parallelism: z.number(),
  status: z.string(),
  recordsIn: z.number(),
  recordsOut: z.number(),
});

/** Everything known of one Flink run: the result of `flinkRun` and the body of each `flink.run` event. */
export const flinkRunSnapshot = z.object({
  flinkRunId: z.string(),
  jobName: z.string(),
  target: flinkTargetKind,
  flinkVersion,
  /** starting: the JVM starts or the statements are submitted; running: Flink runs the job; ended. */
  phase: z.enum(['starting', 'running', 'ended']),
  /** Flink's job id, once a statement started the job. */
  jobId: z.string().nullable(),
  /** Flink's job status (CREATED, RUNNING, FINISHED, FAILED, CANCELED, ...). */
  state: z.string().nullable(),
  vertices: z.array(flinkVertex),
  checkpoints: z.number(),
  /** Every failure Flink reported (restarts included), in one line each, oldest first. */
  failures: z.array(z.string()),
  /** The job's page in the Flink web UI (a gateway's cluster), or null. */
  webUi: z.string().nullable(),
  /** With phase 'ended': whether every job of the script finished; else `error` says why, in one line. */
  ok: z.boolean().optional(),
  error: z.string().optional(),
  /** A stop with a savepoint: where Flink wrote it. */
  savepoint: z.string().optional(),
});
export type FlinkRunSnapshot = z.output<typeof flinkRunSnapshot>;

export const flinkRunEventSchema = flinkRunSnapshot.extend({ type: z.literal('flink.run') });
