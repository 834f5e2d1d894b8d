/**
 * One keystroke's validation in the designer: the 200-node, 250-edge fixture is validated once,
 * then each keystroke changes one expression (a filter's condition, a map's select list, a
 * window's aggregates: a character typed or deleted, sometimes leaving it invalid) and the job is
 * validated again the way the designer does, with its ValidationCache
 * (engine/graph/validation-cache.ts). In process, on the engine's validateJob; the baseline is the
 * same validation from scratch (no cache), which is what every keystroke cost before the cache.
 */
import { validateJob } from '../engine/graph/validate.ts';
import { createValidationCache } from '../engine/graph/validation-cache.ts';
import type { JobDocument, JobNode } from '../engine/graph/types.ts';
import { largeJob } from '../test/support/fixtures/large-job.ts';

export interface KeystrokeValidation {
  nodes: number;
  keystrokes: number;
  medianMs: number;
  p95Ms: number;
  /** Median of a validation from scratch of the same documents. */
  freshMedianMs: number;
}

const FIELDS: Record<string, string> = { filter: 'where', map: 'select', window: 'aggregates' };

function quantile(xs: number[], p: number): number {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor(p * a.length))];
}

/** A keystroke in node `i`'s expression: a character typed, or the last one deleted. */
function keystroke(job: JobDocument, i: number, k: number): JobDocument {
  const node = job.nodes[i];
  const field = FIELDS[node.type];
  const config = node.config as Record<string, string>;
  const text = config[field];
  const next = k % 3 === 2 ? text.slice(0, -1) : text + (k % 2 ? ' ' : '1');
  const nodes = job.nodes.slice();
  nodes[i] = { ...node, config: { ...config, [field]: next } } as JobNode;
  return { ...job, nodes };
}

export function measureKeystrokeValidation(keystrokes = 60): KeystrokeValidation {
  let job = largeJob();
  const editable = job.nodes.flatMap((n, i) => (FIELDS[n.type] ? [i] : []));
  const cache = createValidationCache();
  validateJob(job, { cache });
  const times: number[] = [];
  const fresh: number[] = [];
  for (let k = 0; k < keystrokes; k++) {
    // The same node for a few keystrokes (a word typed), then another one.
    job = keystroke(job, editable[Math.floor(k / 4) % editable.length], k);
    const t0 = performance.now();
    validateJob(job, { cache });
    times.push(performance.now() - t0);
    if (k % 6 === 0) {
      const t1 = performance.now();
      validateJob(job);
      fresh.push(performance.now() - t1);
    }
  }
  return {
    nodes: job.nodes.length,
    keystrokes,
    medianMs: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    freshMedianMs: quantile(fresh, 0.5),
  };
}
