/**
 * `source.generator`: deterministic records {seq, key, value, ts} for a seed. Every field is a pure
 * function of (seed, seq), so the set of records does not depend on parallelism or batch sizes.
 * Subtask i of p produces seq = i, i+p, i+2p, ...; its position is the next seq it will produce.
 * `ts = startTime + seq*step - jitter` with jitter uniform in [0, outOfOrderness]: out of order,
 * but never later than `outOfOrderness` behind the largest timestamp already produced.
 */
import type { GeneratorSourceConfig } from '../graph/types.ts';
import { parseDuration } from '../graph/units.ts';
import type { Row } from '../contracts/operator.ts';
import type { SourceContext, SourceReader, SourceReadResult } from '../contracts/source.ts';
import { GENERATOR_DEFAULTS as D } from '../nodes/source-generator/definition.ts';

export interface GeneratorParams {
  seed: number;
  count: number | null;
  rate: number | null;
  keys: number;
  outOfOrderness: number;
  startTime: number;
  step: number;
}

export function generatorParams(c: GeneratorSourceConfig): GeneratorParams {
  return {
    seed: c.seed ?? D.seed,
    count: c.count ?? null,
    rate: c.rate ?? null,
    keys: Math.max(1, c.keys ?? D.keys),
    outOfOrderness: parseDuration(c.outOfOrderness ?? D.outOfOrderness),
    startTime: c.startTime ?? D.startTime,
    step: c.step ?? D.step,
  };
}

/** splitmix32-style mixing of (seed, seq, salt): stable across runs and platforms. */
function mix(seed: number, seq: number, salt: number): number {
  let h =
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^
      Math.imul(seq | 0, 0xc2b2ae35) ^
      Math.imul((seq / 4294967296) | 0, 0x27d4eb2f) ^
      salt) >>>
    0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The record for one sequence number (exported so tests can compute references independently). */
export function generatorRecord(
  p: GeneratorParams,
  seq: number,
): { seq: number; key: string; value: number; ts: number } {
  return { seq, key: 'k' + generatorKeyIndex(p, seq), value: generatorValue(p, seq), ts: generatorTs(p, seq) };
}

/** The fields one by one, for loops that keep a table of key names (the bench's baseline). */
export function generatorKeyIndex(p: GeneratorParams, seq: number): number {
  return mix(p.seed, seq, 1) % p.keys;
}
export function generatorValue(p: GeneratorParams, seq: number): number {
  return mix(p.seed, seq, 2) % 1000;
}
export function generatorTs(p: GeneratorParams, seq: number): number {
  const jitter = p.outOfOrderness > 0 ? mix(p.seed, seq, 3) % (p.outOfOrderness + 1) : 0;
  return p.startTime + seq * p.step - jitter;
}

/**
 * One arithmetic progression of sequence numbers (next, next+stride, ...). A fresh subtask i of p
 * owns one stream {i, p}; after a restore with another parallelism the old streams are dealt out to
 * the new subtasks, and a subtask with several streams merges them in seq order, so event time
 * stays as ordered as in a run without rescaling.
 */
interface SeqStream {
  next: number;
  stride: number;
}

export class GeneratorSourceReader implements SourceReader {
  private streams: SeqStream[];
  private emitted = 0;
  private readonly startedAt = Date.now();
  private readonly keyNames: string[];

  /** `restored`: positions of every old subtask (a union); this subtask takes its share. */
  private readonly timeField: string | null;

  constructor(
    private readonly p: GeneratorParams,
    private readonly ctx: SourceContext,
    restored?: unknown[],
    eventTimeField?: string,
  ) {
    this.timeField = eventTimeField && eventTimeField !== 'ts' ? eventTimeField : null;
    if (restored && restored.length) {
      const all: SeqStream[] = [];
      for (const r of restored) {
        const pos = r as { streams?: SeqStream[]; next?: number; parallelism?: number } | undefined;
        if (pos?.streams) all.push(...pos.streams);
        else if (pos && typeof pos.next === 'number') all.push({ next: pos.next, stride: pos.parallelism ?? 1 });
      }
      all.sort((x, y) => (x.next % x.stride) - (y.next % y.stride) || x.stride - y.stride || x.next - y.next);
      this.streams = all.filter((_, k) => k % ctx.parallelism === ctx.subtask).map((x) => ({ ...x }));
    } else {
      this.streams = [{ next: ctx.subtask, stride: ctx.parallelism }];
    }
    this.keyNames = Array.from({ length: this.p.keys }, (_, i) => 'k' + i);
  }

  position(): unknown {
    return { streams: this.streams.map((x) => ({ ...x })) };
  }

  private get exhausted(): boolean {
    const c = this.p.count;
    return c !== null && this.streams.every((x) => x.next >= c);
  }

  async read(max: number): Promise<SourceReadResult> {
    const { p, ctx } = this;
    let n = max;
    if (p.rate !== null) {
      const perSubtask = p.rate / ctx.parallelism;
      const allowed = Math.floor(((Date.now() - this.startedAt) / 1000) * perSubtask) - this.emitted;
      if (allowed <= 0)
        return { rows: [], ts: [], end: this.exhausted, waitMs: Math.max(1, Math.ceil(1000 / perSubtask)) };
      n = Math.min(n, allowed);
    }
    const rows: Row[] = [];
    const ts: number[] = [];
    const count = p.count ?? Infinity;
    const streams = this.streams;
    for (let i = 0; i < n; i++) {
      // The stream with the smallest next seq (one stream: no choice to make).
      let s = streams[0];
      for (let k = 1; k < streams.length; k++) if (streams[k].next < s.next) s = streams[k];
      if (s === undefined || s.next >= count) break;
      const seq = s.next;
      const jitter = p.outOfOrderness > 0 ? mix(p.seed, seq, 3) % (p.outOfOrderness + 1) : 0;
      const t = p.startTime + seq * p.step - jitter;
      const row = { seq, key: this.keyNames[mix(p.seed, seq, 1) % p.keys], value: mix(p.seed, seq, 2) % 1000, ts: t };
      rows.push(row);
      // Event time is `ts` unless eventTime.field names another (numeric) field.
      ts.push(this.timeField === null ? t : Number(row[this.timeField as keyof typeof row]));
      s.next = seq + s.stride;
    }
    this.emitted += rows.length;
    return { rows, ts, end: this.exhausted };
  }

  async close(): Promise<void> {}
}
