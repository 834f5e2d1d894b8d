/**
 * `source.generator`: deterministic records {seq, key, value, ts} for a seed. Every field is a pure
 * function of (seed, seq), so the set of records does not depend on parallelism or batch sizes.
 * Subtask i of p produces seq = i, i+p, i+2p, ...; its position is the next seq it will produce.
 * `ts = startTime + seq*step - jitter` with jitter uniform in [0, outOfOrderness]: out of order,
 * but never later than `outOfOrderness` behind the largest timestamp already produced.
 */
import type { GeneratorSourceConfig } from '../graph/types.ts';
import { parseDuration } from '../graph/units.ts';
import type { Row } from '../runtime/operator.ts';
import type { SourceContext, SourceReader, SourceReadResult } from './source.ts';

export const GENERATOR_DEFAULT_START = 1_700_000_000_000;

export interface GeneratorParams {
  seed: number; count: number | null; rate: number | null; keys: number;
  outOfOrderness: number; startTime: number; step: number;
}

export function generatorParams(c: GeneratorSourceConfig): GeneratorParams {
  return {
    seed: c.seed ?? 0,
    count: c.count ?? null,
    rate: c.rate ?? null,
    keys: Math.max(1, c.keys ?? 10),
    outOfOrderness: c.outOfOrderness === undefined ? 0 : parseDuration(c.outOfOrderness),
    startTime: c.startTime ?? GENERATOR_DEFAULT_START,
    step: c.step ?? 10,
  };
}

/** splitmix32-style mixing of (seed, seq, salt): stable across runs and platforms. */
function mix(seed: number, seq: number, salt: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(seq | 0, 0xc2b2ae35) ^ Math.imul((seq / 4294967296) | 0, 0x27d4eb2f) ^ salt) >>> 0;
  h ^= h >>> 16; h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15; h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The record for one sequence number (exported so tests can compute references independently). */
export function generatorRecord(p: GeneratorParams, seq: number): { seq: number; key: string; value: number; ts: number } {
  const jitter = p.outOfOrderness > 0 ? mix(p.seed, seq, 3) % (p.outOfOrderness + 1) : 0;
  return {
    seq,
    key: 'k' + (mix(p.seed, seq, 1) % p.keys),
    value: mix(p.seed, seq, 2) % 1000,
    ts: p.startTime + seq * p.step - jitter,
  };
}

export class GeneratorSourceReader implements SourceReader {
  private next: number;
  private emitted = 0;
  private readonly startedAt = Date.now();
  private readonly keyNames: string[];
  constructor(private readonly p: GeneratorParams, private readonly ctx: SourceContext, restored?: unknown) {
    const r = restored as { next?: number; parallelism?: number } | undefined;
    if (r && r.parallelism !== undefined && r.parallelism !== ctx.parallelism) {
      throw new Error(`source.generator cannot change parallelism on restore (${r.parallelism} -> ${ctx.parallelism})`);
    }
    this.next = r?.next ?? ctx.subtask;
    this.keyNames = Array.from({ length: this.p.keys }, (_, i) => 'k' + i);
  }

  position(): unknown { return { next: this.next, parallelism: this.ctx.parallelism }; }

  async read(max: number): Promise<SourceReadResult> {
    const { p, ctx } = this;
    let n = max;
    if (p.rate !== null) {
      const perSubtask = p.rate / ctx.parallelism;
      const allowed = Math.floor(((Date.now() - this.startedAt) / 1000) * perSubtask) - this.emitted;
      if (allowed <= 0) return { rows: [], ts: [], end: false, waitMs: Math.max(1, Math.ceil(1000 / perSubtask)) };
      n = Math.min(n, allowed);
    }
    const rows: Row[] = [];
    const ts: number[] = [];
    let seq = this.next;
    const step = ctx.parallelism;
    for (let i = 0; i < n; i++) {
      if (p.count !== null && seq >= p.count) break;
      const jitter = p.outOfOrderness > 0 ? mix(p.seed, seq, 3) % (p.outOfOrderness + 1) : 0;
      const t = p.startTime + seq * p.step - jitter;
      rows.push({ seq, key: this.keyNames[mix(p.seed, seq, 1) % p.keys], value: mix(p.seed, seq, 2) % 1000, ts: t });
      ts.push(t);
      seq += step;
    }
    this.next = seq;
    this.emitted += rows.length;
    return { rows, ts, end: p.count !== null && seq >= p.count };
  }

  async close(): Promise<void> {}
}
