/**
 * A Nexmark query (examples/nexmark/qN.weir.json) rewritten to read pre-generated event files, so
 * Weir and Flink read exactly the same events: the `source.nexmark` node becomes one `source.file`
 * per port the query uses (`person.jsonl`, `auction.jsonl`, `bid.jsonl` from writeNexmarkFiles,
 * the rows the generator emits), with the suite DDL's columns and its watermark 4 s behind
 * `dateTime`. Flink reads them with its filesystem connector and json format (the exporter's
 * translation of `source.file`, engine/export/flink-sql/sources.ts).
 *
 * The file sink becomes a `sink.blackhole`, as the Nexmark suite's own queries end: both engines
 * discard the results (Weir's exporter writes it as Flink's `blackhole` connector).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobDocument, JobNode, StateBackendKind } from '../engine/graph/types.ts';
import {
  NEXMARK_COLUMNS,
  NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS,
  isNexmarkPort,
  type NexmarkPort,
} from '../engine/graph/nexmark.ts';

export const NEXMARK_EXAMPLES = fileURLToPath(new URL('../examples/nexmark/', import.meta.url));

export interface FileJobOptions {
  query: string;
  /** The folder holding person.jsonl, auction.jsonl and bid.jsonl. */
  dataDir: string;
  backend: StateBackendKind;
  /** Checkpoints go under here. */
  workDir: string;
  /** Checkpoint interval (Flink's Nexmark checkpoints every 3 minutes; the bench every 10 s). */
  interval?: string;
}

/** The file source of one port: the suite DDL's columns, event time `dateTime`, 4 s behind. */
function portSource(id: string, port: NexmarkPort, dataDir: string): JobNode {
  return {
    id,
    type: 'source.file',
    name: `Nexmark ${port} file`,
    config: {
      path: join(dataDir, `${port}.jsonl`),
      format: 'jsonl',
      onBadRecord: 'fail',
      columns: Object.fromEntries(NEXMARK_COLUMNS[port]),
      eventTime: { field: 'dateTime', maxOutOfOrderness: `${NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS}ms` },
    },
  };
}

export function fileSourcedDocument(opts: FileJobOptions): JobDocument {
  const doc = JSON.parse(readFileSync(join(NEXMARK_EXAMPLES, `${opts.query}.weir.json`), 'utf8')) as JobDocument;
  const nodes: JobNode[] = [];
  for (const n of doc.nodes) {
    if (n.type === 'source.nexmark') {
      const ports = [...new Set(doc.edges.filter((e) => e.from === n.id).map((e) => e.fromPort))];
      for (const port of ports) {
        if (!isNexmarkPort(port)) throw new Error(`${opts.query}: an edge leaves '${n.id}' on port '${port}'`);
        nodes.push(portSource(`${n.id}_${port}`, port, opts.dataDir));
      }
    } else if (n.type === 'source.file') {
      // A side input (q13's data/side_input.csv) is read where the document lives.
      nodes.push({ ...n, config: { ...n.config, path: resolve(NEXMARK_EXAMPLES, n.config.path) } });
    } else if (n.type === 'sink.file') {
      nodes.push({ id: n.id, type: 'sink.blackhole', ...(n.name ? { name: n.name } : {}), config: {} });
    } else nodes.push(n);
  }
  const nexmark = new Set(doc.nodes.filter((n) => n.type === 'source.nexmark').map((n) => n.id));
  doc.edges = doc.edges.map((e) => {
    if (!nexmark.has(e.from)) return e;
    const { fromPort, ...rest } = e;
    return { ...rest, from: `${e.from}_${fromPort}` };
  });
  doc.nodes = nodes;
  doc.settings = {
    ...doc.settings,
    parallelism: 1,
    stateBackend: opts.backend,
    checkpointing: {
      ...doc.settings?.checkpointing,
      interval: opts.interval ?? '10s',
      dir: join(opts.workDir, 'checkpoints'),
      incremental: opts.backend === 'rocksdb',
    },
  };
  return doc;
}
