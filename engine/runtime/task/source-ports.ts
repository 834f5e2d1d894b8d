/**
 * A multi-port source's batch (SourceReadResult.ports) split by port, each port's rows, times and
 * source watermarks kept in read order. Such a source has no `out` edge, so nothing is chained to
 * it (plan.ts chains `out` edges only) and its batches go straight to the network output.
 */
import type { OutputPort, RecordBatch } from '../../contracts/operator.ts';

export function splitByPort(batch: RecordBatch, ports: readonly OutputPort[]): Map<OutputPort, RecordBatch> {
  const out = new Map<OutputPort, RecordBatch>();
  const { rows, ts } = batch;
  const sw = batch.sourceWatermarks;
  // Runs of one port are common (46 bids in 50 events): look the batch up only when the port changes.
  let port: OutputPort | null = null;
  let b: RecordBatch | undefined;
  for (let i = 0; i < rows.length; i++) {
    if (ports[i] !== port) {
      port = ports[i];
      b = out.get(port);
      if (b === undefined) {
        b = sw ? { rows: [], ts: [], sourceWatermarks: [] } : { rows: [], ts: [] };
        out.set(port, b);
      }
    }
    b!.rows.push(rows[i]);
    b!.ts.push(ts[i]);
    if (sw) b!.sourceWatermarks!.push(sw[i]);
  }
  return out;
}
