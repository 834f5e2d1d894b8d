/**
 * JobDocument <-> NormalizedJob. Normalizing fills every setting from DEFAULT_SETTINGS, turns
 * durations (settings and node configs alike) into milliseconds and sizes into bytes, gives every
 * node a parallelism and every edge a `fromPort`. Denormalizing writes durations and sizes back as
 * strings so that the result is again a valid, readable `weir.job/v1` document. Browser-safe.
 *
 * Both functions expect input that already passed the schema (validateJob does that).
 */

import {
  DEFAULT_SETTINGS,
  JOB_FORMAT,
  type DurationInput,
  type JobDocument,
  type JobNode,
  type JobSettings,
  type NormalizedJob,
} from './types.ts';
import { formatDuration, formatSize, parseDuration, parseSize } from './units.ts';
import type { DurationFn } from '../nodes/durations.ts';
import { definitionOf } from './node-types.ts';
import { formatSignedDuration, parseSignedDuration } from './signed-duration.ts';

/** A copy of `node` with `f` applied to every duration inside its config (its definition's rule). */
export function mapNodeDurations<N extends JobNode>(node: N, f: DurationFn, signed: DurationFn = f): N {
  const map = definitionOf(node).mapDurations;
  return map ? { ...node, config: map(node.config, f, signed) } : { ...node };
}

function normalizeSettings(doc: JobDocument): JobSettings {
  const s = doc.settings ?? {};
  const cp = s.checkpointing ?? {};
  const d = DEFAULT_SETTINGS;
  const ms = (v: DurationInput | undefined, fallback: number) => (v === undefined ? fallback : parseDuration(v));
  return {
    stateBackend: s.stateBackend ?? d.stateBackend,
    checkpointing: {
      interval: cp.interval === undefined ? d.checkpointing.interval : parseDuration(cp.interval),
      mode: cp.mode ?? d.checkpointing.mode,
      timeout: ms(cp.timeout, d.checkpointing.timeout),
      minPause: ms(cp.minPause, d.checkpointing.minPause),
      retained: cp.retained ?? d.checkpointing.retained,
      incremental: cp.incremental ?? d.checkpointing.incremental,
      dir: cp.dir ?? d.checkpointing.dir,
      tolerableFailures: cp.tolerableFailures ?? d.checkpointing.tolerableFailures,
    },
    memoryStateLimit: s.memoryStateLimit === undefined ? d.memoryStateLimit : parseSize(s.memoryStateLimit),
    parallelism: s.parallelism ?? d.parallelism,
    maxParallelism: s.maxParallelism ?? d.maxParallelism,
    restart: {
      attempts: s.restart?.attempts ?? d.restart.attempts,
      delay: ms(s.restart?.delay, d.restart.delay),
    },
  };
}

export function normalizeJob(doc: JobDocument, baseDir?: string): NormalizedJob {
  const settings = normalizeSettings(doc);
  const job: NormalizedJob = {
    format: JOB_FORMAT,
    name: doc.name,
    settings,
    nodes: doc.nodes.map((n) => ({
      ...mapNodeDurations(n, parseDuration, parseSignedDuration),
      parallelism: n.parallelism ?? settings.parallelism,
    })),
    edges: doc.edges.map((e) => ({
      from: e.from,
      to: e.to,
      fromPort: e.fromPort ?? 'out',
      ...(e.toPort ? { toPort: e.toPort } : {}),
    })),
  };
  if (baseDir !== undefined) job.baseDir = baseDir;
  return job;
}

const asText: DurationFn = (d) => (typeof d === 'number' ? formatDuration(d) : d);
const asSignedText: DurationFn = (d) => (typeof d === 'number' ? formatSignedDuration(d) : d);

/**
 * A complete `weir.job/v1` document for a normalized job: every setting written out, durations
 * and sizes as strings, `baseDir` dropped. Validating it again yields the same NormalizedJob.
 */
export function toJobDocument(job: NormalizedJob): JobDocument {
  const s = job.settings;
  const cp = s.checkpointing;
  return {
    format: JOB_FORMAT,
    name: job.name,
    settings: {
      stateBackend: s.stateBackend,
      checkpointing: {
        // Absent interval = checkpointing off; null is not part of the document format.
        ...(cp.interval !== null ? { interval: formatDuration(cp.interval) } : {}),
        mode: cp.mode,
        timeout: formatDuration(cp.timeout),
        minPause: formatDuration(cp.minPause),
        retained: cp.retained,
        incremental: cp.incremental,
        dir: cp.dir,
        tolerableFailures: cp.tolerableFailures,
      },
      memoryStateLimit: formatSize(s.memoryStateLimit),
      parallelism: s.parallelism,
      maxParallelism: s.maxParallelism,
      restart: { attempts: s.restart.attempts, delay: formatDuration(s.restart.delay) },
    },
    nodes: job.nodes.map((n) => mapNodeDurations(n as JobNode, asText, asSignedText)),
    edges: job.edges.map((e) => ({
      from: e.from,
      to: e.to,
      fromPort: e.fromPort,
      ...(e.toPort ? { toPort: e.toPort } : {}),
    })),
  };
}
