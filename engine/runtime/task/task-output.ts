/**
 * The network output of one task subtask: routes the tail operator's batches over its outgoing
 * network edges (forward, hash by key group, rebalance by batch, global) and broadcasts control
 * events to every channel so that each downstream input sees them in order.
 */
import type { RecordBatch, Row, RowKind, OutputPort } from '../../contracts/operator.ts';
import type { Channel, ChannelItem } from './channel.ts';
import { OutputSet } from './channel.ts';
import type { NetworkEdge } from '../common/plan.ts';
import { keyGroupOf, subtaskForKeyGroup } from '../../state/keygroups.ts';
import { parseKeyBy } from '../../sql/projection.ts';

export interface RoutedEdge {
  edge: NetworkEdge;
  /** Channels indexed by downstream subtask (forward: only the own index is set). */
  channels: Channel[];
  targetParallelism: number;
}

export class TaskOutput {
  readonly set = new OutputSet();
  private readonly routes: Array<{ port: OutputPort; send: (b: RecordBatch) => void }> = [];
  recordsOut = 0;

  constructor(edges: RoutedEdge[], subtask: number, maxParallelism: number) {
    for (const r of edges) {
      for (const ch of r.channels) if (ch) this.set.add(ch);
      this.routes.push({ port: r.edge.port, send: makeRoute(r, subtask, maxParallelism) });
    }
  }

  get hasOutputs(): boolean {
    return this.routes.length > 0;
  }

  emit(batch: RecordBatch, port: OutputPort): void {
    for (const r of this.routes) {
      if (r.port === port) r.send(batch);
    }
    if (port === 'out') this.recordsOut += batch.rows.length;
  }

  broadcast(item: ChannelItem): void {
    this.set.broadcast(item);
  }
  waitWritable(): Promise<void> {
    return this.set.waitWritable();
  }
  writable(): boolean {
    return this.set.writable();
  }
}

function makeRoute(r: RoutedEdge, subtask: number, maxParallelism: number): (b: RecordBatch) => void {
  const { edge, channels, targetParallelism } = r;
  switch (edge.partitioning) {
    case 'forward': {
      const ch = channels[subtask];
      return (b) => ch.push({ kind: 'batch', batch: b });
    }
    case 'global': {
      const ch = channels[0];
      return (b) => ch.push({ kind: 'batch', batch: b });
    }
    case 'rebalance': {
      let next = subtask % targetParallelism;
      return (b) => {
        channels[next].push({ kind: 'batch', batch: b });
        next = (next + 1) % targetParallelism;
      };
    }
    case 'hash': {
      const keyOf = parseKeyBy(edge.keyBy ?? '').keyOf;
      // Cache key -> target subtask: keys repeat, hashing them does not need to.
      const cache = new Map<string, number>();
      return (b) => {
        if (targetParallelism === 1) {
          channels[0].push({ kind: 'batch', batch: b });
          return;
        }
        const rows: Row[][] = [];
        const ts: number[][] = [];
        const sw = b.sourceWatermarks;
        const sws: number[][] | null = sw ? [] : null;
        const kinds = b.kinds;
        const ks: RowKind[][] | null = kinds ? [] : null;
        for (let j = 0; j < targetParallelism; j++) {
          rows.push([]);
          ts.push([]);
          sws?.push([]);
          ks?.push([]);
        }
        for (let i = 0; i < b.rows.length; i++) {
          const key = keyOf(b.rows[i]);
          let t = cache.get(key);
          if (t === undefined) {
            t = subtaskForKeyGroup(maxParallelism, targetParallelism, keyGroupOf(key, maxParallelism));
            if (cache.size > 100_000) cache.clear();
            cache.set(key, t);
          }
          rows[t].push(b.rows[i]);
          ts[t].push(b.ts[i]);
          if (sws !== null) sws[t].push(sw![i]);
          if (ks !== null) ks[t].push(kinds![i]);
        }
        for (let j = 0; j < targetParallelism; j++) {
          if (rows[j].length) {
            const part: RecordBatch =
              sws === null ? { rows: rows[j], ts: ts[j] } : { rows: rows[j], ts: ts[j], sourceWatermarks: sws[j] };
            if (ks !== null) part.kinds = ks[j];
            channels[j].push({ kind: 'batch', batch: part });
          }
        }
      };
    }
  }
}
