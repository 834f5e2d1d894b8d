/**
 * A preview run: the job's operators run in this process over a sample (the first N records of each
 * source), with sinks off, and every node's output captured (Arroyo's preview, NiFi's "list queue").
 * No checkpoints, no task processes, no files written: what a user asks while designing is "what
 * does each node make of my data", and the answer must come in well under a second.
 *
 * Semantics follow a real run at parallelism 1: sources are read in turn one batch at a time, each
 * batch followed by its bounded-out-of-orderness watermark (so late records are late here too), a
 * node with several inputs advances on the smallest of their watermarks, and once every source has
 * given its sample the end of input flushes windows (watermark +Infinity, then endInput), as a
 * bounded job ends. Bad records and late records are kept with the node that saw them.
 */
import { resolve as resolvePath } from 'node:path';
import type { JobNode, NormalizedJob } from '../../graph/types.ts';

type JobEdge = NormalizedJob['edges'][number];
import type {
  OperatorOutput,
  OutputPort,
  RecordBatch,
  Row,
  RowKind,
  StreamOperator,
} from '../../contracts/operator.ts';
import type { SourceReader } from '../../contracts/source.ts';
import type { OperatorServices } from '../../contracts/operator-services.ts';
import { definitionOf } from '../../graph/node-types.ts';
import { sourceReadColumns } from '../../graph/read-columns.ts';
import { createSourceReader, sourceWatermarkSettings } from '../../connectors/sources.ts';
import { BoundedOutOfOrdernessWatermarks } from '../../time/watermark-generator.ts';
import { HeapStateBackend } from '../../state/heap.ts';
import { keyGroupRangeFor } from '../../state/keygroups.ts';
import { createOperator, needsKeyedState } from '../task/operators/registry.ts';
import { splitByPort } from '../task/source-ports.ts';
import { topoOrder } from '../common/plan.ts';

export interface PreviewOptions {
  /** Records read from each source (default 100). */
  recordsPerSource?: number;
  /** Rows kept per node and port (default 200); counts go on. */
  keepRows?: number;
  /** Reading stops at this many ms even when a source has not given its sample (default 3,000). */
  timeoutMs?: number;
  /**
   * Leaves out one record of the sample (the `index`-th good record `source` reads, from 0), so a
   * trace can compare the run with and without it (trace-record.ts).
   */
  exclude?: { source: string; index: number };
}

export interface PreviewRow {
  row: Row;
  /** Event time, when the row has one. */
  ts: number | null;
  /** Changelog kind, when the node produces a changelog. */
  kind?: RowKind;
}

export interface NodePreview {
  nodeId: string;
  /** Rows in, over all inputs (for a sink: what it would have written). */
  rowsIn: number;
  /** Per output port: rows out, and the first `keepRows` of them. */
  out: Partial<Record<OutputPort, { count: number; rows: PreviewRow[] }>>;
  /** A sink's input, as it would be written (first `keepRows`). */
  wouldWrite?: PreviewRow[];
  lateRecords: number;
  badRecords: Array<{ where: string; message: string }>;
  /** The node's watermark when the sample ended (before the end-of-input flush); null = none. */
  watermark: number | null;
}

export interface PreviewResult {
  nodes: Record<string, NodePreview>;
  /** Whether each source ended (bounded input shorter than the sample) or was stopped at the sample. */
  sources: Record<string, { records: number; ended: boolean }>;
  elapsedMs: number;
  /** The record `exclude` left out, when the sample reached it. */
  excluded?: PreviewRow & { port: OutputPort };
}

type Work =
  { kind: 'batch'; edge: JobEdge; batch: RecordBatch } | { kind: 'watermark'; edge: JobEdge; watermark: number };

const SOURCE_BATCH = 64;

/** `job` must be valid (validateJob): a preview runs what a run would run. */
export async function previewRun(job: NormalizedJob, opts: PreviewOptions = {}): Promise<PreviewResult> {
  const started = performance.now();
  const perSource = opts.recordsPerSource ?? 100;
  const keep = opts.keepRows ?? 200;
  const deadline = started + (opts.timeoutMs ?? 3000);
  const baseDir = job.baseDir ?? process.cwd();
  const maxP = job.settings.maxParallelism;
  const range = keyGroupRangeFor(maxP, 1, 0);

  const nodes: Record<string, NodePreview> = {};
  for (const n of job.nodes)
    nodes[n.id] = { nodeId: n.id, rowsIn: 0, out: {}, lateRecords: 0, badRecords: [], watermark: null };
  const outgoing = new Map<string, JobEdge[]>();
  const incoming = new Map<string, JobEdge[]>();
  for (const e of job.edges) {
    (outgoing.get(e.from) ?? outgoing.set(e.from, []).get(e.from)!).push(e);
    (incoming.get(e.to) ?? incoming.set(e.to, []).get(e.to)!).push(e);
  }
  const outgoingOfAll = new Map(job.nodes.map((n) => [n.id, outgoing.get(n.id) ?? []]));
  const queue: Work[] = [];
  let excluded: PreviewResult['excluded'];

  const capture = (nodeId: string, port: OutputPort, batch: RecordBatch) => {
    const p = (nodes[nodeId].out[port] ??= { count: 0, rows: [] });
    p.count += batch.rows.length;
    for (let i = 0; i < batch.rows.length && p.rows.length < keep; i++) p.rows.push(rowOf(batch, i));
  };
  const emitFrom = (nodeId: string, batch: RecordBatch, port: OutputPort = 'out') => {
    if (batch.rows.length === 0) return;
    capture(nodeId, port, batch);
    for (const e of outgoing.get(nodeId) ?? [])
      if ((e.fromPort ?? 'out') === port) queue.push({ kind: 'batch', edge: e, batch });
  };
  const watermarkFrom = (nodeId: string, watermark: number) => {
    for (const e of outgoing.get(nodeId) ?? []) queue.push({ kind: 'watermark', edge: e, watermark });
  };

  // Operators (sinks are off: they only record what they would write).
  const services: OperatorServices = {
    lineage: 'preview',
    attempt: 0,
    checkpointing: false,
    sendPreview: () => {},
    log: () => {},
  };
  const operators = new Map<string, StreamOperator>();
  const isSink = (n: JobNode) => definitionOf(n).ports.outputs.length === 0;
  const isSource = (n: JobNode) => definitionOf(n).ports.maxInputs === 0;
  for (const node of job.nodes) {
    if (isSource(node) || isSink(node)) continue;
    const op = createOperator(node, job, services);
    const out: OperatorOutput = {
      emit: (batch, port) => emitFrom(node.id, batch, port ?? 'out'),
      emitWatermark: (w) => {
        nodes[node.id].watermark = Number.isFinite(w) ? w : nodes[node.id].watermark;
        watermarkFrom(node.id, w);
      },
    };
    await op.open(
      {
        nodeId: node.id,
        subtask: 0,
        parallelism: 1,
        maxParallelism: maxP,
        keyGroupRange: range,
        state: needsKeyedState(node) ? new HeapStateBackend({ kind: 'memory', keyGroupRange: range }) : null,
        metrics: {
          lateRecords: (n) => void (nodes[node.id].lateRecords += n),
          badRecords: () => {},
        },
        resolvePath: (p) => resolvePath(baseDir, p),
      },
      out,
    );
    operators.set(node.id, op);
  }

  // Watermarks per input edge; a node moves on the smallest (Flink's StatusWatermarkValve, without idleness).
  const edgeWatermark = new Map<JobEdge, number>();
  const nodeWatermark = new Map<string, number>();
  const inputIndex = (e: JobEdge): number =>
    e.toPort ? (e.toPort === 'right' ? 1 : 0) : (incoming.get(e.to) ?? []).indexOf(e);

  const drain = async () => {
    while (queue.length > 0) {
      const w = queue.shift()!;
      const target = w.edge.to;
      const op = operators.get(target);
      if (w.kind === 'batch') {
        nodes[target].rowsIn += w.batch.rows.length;
        if (op) await op.processBatch(w.batch, inputIndex(w.edge));
        else {
          const sink = (nodes[target].wouldWrite ??= []);
          for (let i = 0; i < w.batch.rows.length && sink.length < keep; i++) sink.push(rowOf(w.batch, i));
        }
        continue;
      }
      edgeWatermark.set(w.edge, w.watermark);
      const ins = incoming.get(target) ?? [];
      const min = Math.min(...ins.map((e) => edgeWatermark.get(e) ?? -Infinity));
      if (min <= (nodeWatermark.get(target) ?? -Infinity)) continue;
      nodeWatermark.set(target, min);
      if (op) await op.processWatermark(min);
      else if (Number.isFinite(min)) nodes[target].watermark = min;
    }
  };

  // Sources, in turn, one batch each, until each has given its sample or ended.
  const sources = job.nodes.filter(isSource).map((node) => {
    const bad = nodes[node.id].badRecords;
    const reader: SourceReader = createSourceReader(
      node,
      {
        subtask: 0,
        parallelism: 1,
        resolvePath: (p) => resolvePath(baseDir, p),
        jobName: job.name,
        badRecord: (where, message) => void (bad.length < keep && bad.push({ where, message })),
      },
      [],
      sourceReadColumns(job, node.id),
    );
    const wm = new BoundedOutOfOrdernessWatermarks(sourceWatermarkSettings(node).maxOutOfOrderness);
    return { node, reader, wm, records: 0, ended: false, watermark: -Infinity };
  });
  try {
    for (;;) {
      const active = sources.filter((s) => !s.ended && s.records < perSource);
      if (active.length === 0 || performance.now() > deadline) break;
      let progressed = false;
      for (const s of active) {
        const r = await s.reader.read(Math.min(SOURCE_BATCH, perSource - s.records));
        if (r.bad?.length) emitFrom(s.node.id, { rows: r.bad, ts: r.bad.map(() => NaN) }, 'bad');
        if (r.rows.length > 0) {
          progressed = true;
          const first = s.records;
          s.records += r.rows.length;
          const cut = opts.exclude?.source === s.node.id ? opts.exclude.index - first : -1;
          if (cut >= 0 && cut < r.rows.length) {
            excluded = {
              row: r.rows[cut],
              ts: Number.isFinite(r.ts[cut]) ? r.ts[cut] : null,
              port: r.ports?.[cut] ?? 'out',
            };
            if (r.kinds) excluded.kind = r.kinds[cut];
            for (const list of [r.rows, r.ts, r.kinds, r.ports]) list?.splice(cut, 1);
          }
          const batch: RecordBatch = r.kinds
            ? { rows: r.rows, ts: r.ts, sourceWatermarks: s.wm.observeEach(r.ts), kinds: r.kinds }
            : { rows: r.rows, ts: r.ts, sourceWatermarks: s.wm.observeEach(r.ts) };
          if (r.ports) for (const [port, part] of splitByPort(batch, r.ports)) emitFrom(s.node.id, part, port);
          else emitFrom(s.node.id, batch);
          const w = s.wm.current();
          if (w !== null && w > s.watermark) {
            s.watermark = w;
            nodes[s.node.id].watermark = w;
            watermarkFrom(s.node.id, w);
          }
        }
        if (r.end) s.ended = true;
        await drain();
      }
      if (!progressed) await new Promise((r) => setTimeout(r, 5));
    }
    // End of the sample: as a bounded job ends, every window fires and every operator ends its input.
    for (const s of sources) watermarkFrom(s.node.id, Infinity);
    await drain();
    for (const id of topoOrder(job, outgoingOfAll)) {
      const op = operators.get(id);
      if (!op) continue;
      await op.endInput();
      await drain();
    }
  } finally {
    for (const s of sources) await s.reader.close().catch(() => {});
    for (const op of operators.values()) await op.close().catch(() => {});
  }
  return {
    nodes,
    sources: Object.fromEntries(sources.map((s) => [s.node.id, { records: s.records, ended: s.ended }])),
    elapsedMs: Math.round(performance.now() - started),
    ...(excluded ? { excluded } : {}),
  };
}

function rowOf(batch: RecordBatch, i: number): PreviewRow {
  const ts = batch.ts[i];
  const kind = batch.kinds?.[i];
  return kind
    ? { row: batch.rows[i], ts: Number.isFinite(ts) ? ts : null, kind }
    : { row: batch.rows[i], ts: Number.isFinite(ts) ? ts : null };
}
