/**
 * The export test jobs (test/engine/export/flink-sql/jobs.ts) as parity jobs: each runs in Weir
 * and, exported, on real Flink, on the tests' data (orders.jsonl, clicks.csv). A job with parts
 * Flink cannot run here runs as its file-connector part (`fileOnly`), and EXPORT_JOBS_LEFT_OUT
 * says what was cut and why.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { JobDocument } from '../../engine/graph/types.ts';
import { DATA_DIR, everything, ordersPerUser, plainJobs } from '../engine/export/flink-sql/jobs.ts';
import { exportTo, sinksOf, type ParityJob } from './parity-cases.ts';

type Doc = Omit<JobDocument, 'format'>;

/** What of an export test job (by its key: plainJobs' keys, `every-node`) Flink cannot run here, and why. */
export const EXPORT_JOBS_LEFT_OUT: Record<string, string> = {
  'every-node':
    "runs without its generator (Flink's datagen has no seed: other rows), its PostgreSQL source and sink " +
    '(db.example: no server, and the postgres-cdc connector is not on the runner), with its follow-mode clicks ' +
    "read once (a monitored folder never ends) and its preview sinks as file sinks (Flink's print writes to stdout)",
  'memory-unbounded-preview':
    'left out: an unbounded generator into a preview sink (Flink: datagen without end into print) has no end and no rows to compare',
};

const UNRUNNABLE = new Set(['source.generator', 'source.postgres', 'sink.postgres']);

/** Nodes whose output updates earlier rows (a changelog): a file sink after them writes changelog-json. */
function updates(n: Doc['nodes'][number]): boolean {
  if (n.type === 'aggregate' || n.type === 'join') return true;
  return n.type === 'topn' && (n.config as { window?: unknown }).window === undefined;
}

/**
 * The part of a job Flink can run with file connectors: without generators and PostgreSQL nodes
 * (and what only they fed), a union left with one input bypassed, files read once, preview sinks
 * as file sinks (changelog-json after an updating node), checkpoints every second in the job's folder.
 */
export function fileOnly(doc: Doc): Doc {
  const dropped = new Set(doc.nodes.filter((n) => UNRUNNABLE.has(n.type)).map((n) => n.id));
  // A node all of whose inputs are dropped goes too (gen_keyed after gen).
  for (let changed = true; changed;) {
    changed = false;
    for (const n of doc.nodes) {
      const inputs = doc.edges.filter((e) => e.to === n.id);
      if (!dropped.has(n.id) && inputs.length > 0 && inputs.every((e) => dropped.has(e.from))) {
        dropped.add(n.id);
        changed = true;
      }
    }
  }
  let edges = doc.edges.filter((e) => !dropped.has(e.from) && !dropped.has(e.to));
  for (const u of doc.nodes.filter((n) => n.type === 'union' && !dropped.has(n.id))) {
    const inputs = edges.filter((e) => e.to === u.id);
    if (inputs.length !== 1) continue;
    dropped.add(u.id);
    edges = edges.flatMap((e) =>
      e.to === u.id ? [] : e.from === u.id ? [{ ...e, from: inputs[0].from, fromPort: inputs[0].fromPort }] : [e],
    );
  }
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const nodes = doc.nodes
    .filter((n) => !dropped.has(n.id))
    .map((n) => {
      if (n.type === 'sink.preview') {
        const from = byId.get(edges.find((e) => e.to === n.id)!.from)!;
        const format = updates(from) ? 'changelog-json' : 'jsonl';
        return { ...n, type: 'sink.file', config: { path: `out/${n.id}`, format } };
      }
      if (n.type === 'source.file' && (n.config as { follow?: boolean }).follow)
        return { ...n, config: { ...n.config, follow: false } };
      return n;
    });
  // Checkpoints in the job's folder (not the document's /var/weir/checkpoints), every second: a
  // bounded job ends with a checkpoint, and the document's 30 s interval would hold it that long.
  const settings = {
    ...doc.settings,
    checkpointing: { ...doc.settings?.checkpointing, interval: '1s', dir: 'checkpoints' },
  };
  return { ...doc, settings, nodes, edges } as Doc;
}

export function exportTestJobs(root: string, flinkVersion: '1.20' | '2.x'): ParityJob[] {
  const jobs: Array<[string, Doc]> = [
    ['orders-per-user', ordersPerUser],
    ['every-node', fileOnly(everything)],
    ...Object.entries(plainJobs),
  ];
  return jobs
    .filter(([name]) => !EXPORT_JOBS_LEFT_OUT[name]?.startsWith('left out'))
    .map(([name, d]) => {
      const doc = { format: 'weir.job/v1', ...d } as Record<string, unknown>;
      const [weirDir, flinkDir] = ['weir', 'flink'].map((side) => join(root, `export-${name}`, side));
      for (const dir of [weirDir, flinkDir]) {
        mkdirSync(dir, { recursive: true });
        cpSync(DATA_DIR, dir, { recursive: true });
      }
      return {
        id: `export:${name}`,
        title: d.name,
        doc,
        weirDir,
        flinkDir,
        script: exportTo(flinkDir, doc, flinkVersion),
        sinks: sinksOf(doc),
      };
    });
}
