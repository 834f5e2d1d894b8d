/**
 * `source.nexmark`: the Nexmark events of (seed, events) on three ports, `person`, `auction` and
 * `bid` (SourceReadResult.ports names each row's port). Subtask i of p generates event numbers
 * i, i+p, i+2p, ... in increasing order, so every subtask's event time increases, the union over
 * subtasks is the same for every parallelism, and it equals what `weir nexmark generate` writes.
 * The position is the next event number of each of the subtask's progressions; after a restore
 * with another parallelism the progressions are dealt out to the new subtasks, which merge theirs
 * in event-number order (as source.generator does).
 */
import type { OutputPort, Row } from '../../contracts/operator.ts';
import type { SourceContext, SourceReader, SourceReadResult } from '../../contracts/source.ts';
import { NexmarkGenerator, nexmarkKind, type NexmarkParams } from './nexmark-generator.ts';

interface EventStream {
  next: number;
  stride: number;
}

export class NexmarkSourceReader implements SourceReader {
  private readonly gen: NexmarkGenerator;
  private readonly streams: EventStream[];
  private emitted = 0;
  private readonly startedAt = Date.now();

  /** `restored`: the positions of every old subtask (a union); this subtask takes its share. */
  constructor(
    private readonly p: NexmarkParams,
    private readonly ctx: SourceContext,
    restored: unknown[] = [],
  ) {
    this.gen = new NexmarkGenerator(p);
    if (restored.length > 0) {
      const all: EventStream[] = [];
      for (const r of restored) {
        const pos = r as { streams?: EventStream[] } | undefined;
        if (pos?.streams) all.push(...pos.streams);
      }
      all.sort((x, y) => (x.next % x.stride) - (y.next % y.stride) || x.stride - y.stride || x.next - y.next);
      this.streams = all.filter((_, k) => k % ctx.parallelism === ctx.subtask).map((x) => ({ ...x }));
    } else {
      this.streams = [{ next: ctx.subtask, stride: ctx.parallelism }];
    }
  }

  position(): unknown {
    return { streams: this.streams.map((x) => ({ ...x })) };
  }

  private get exhausted(): boolean {
    const e = this.p.events;
    return e !== null && this.streams.every((x) => x.next >= e);
  }

  async read(max: number): Promise<SourceReadResult> {
    const { p, ctx, gen, streams } = this;
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
    const ports: OutputPort[] = [];
    const events = p.events ?? Infinity;
    for (let i = 0; i < n; i++) {
      let s = streams[0];
      for (let k = 1; k < streams.length; k++) if (streams[k].next < s.next) s = streams[k];
      if (s === undefined || s.next >= events) break;
      const e = s.next;
      const row = gen.event(e);
      rows.push(row);
      ts.push(row.dateTime as number);
      ports.push(nexmarkKind(e));
      s.next = e + s.stride;
    }
    this.emitted += rows.length;
    return { rows, ts, ports, end: this.exhausted };
  }

  async close(): Promise<void> {}
}

/** Every event of (params) in event-number order with its port: what a run at any parallelism emits. */
export function* nexmarkEvents(p: NexmarkParams): Generator<{ port: OutputPort; row: Row }> {
  const gen = new NexmarkGenerator(p);
  const events = p.events ?? Infinity;
  for (let n = 0; n < events; n++) yield { port: nexmarkKind(n), row: gen.event(n) };
}
