// Small, valid jobs that each test bends in one place.
import type { JobDocument, JobNode, JobProblem } from '../../../engine/graph/types.ts';

export function baseJob(): JobDocument {
  return {
    format: 'weir.job/v1',
    name: 'orders',
    settings: { stateBackend: 'fs', checkpointing: { interval: '1s' } },
    nodes: [
      {
        id: 'orders',
        type: 'source.file',
        config: {
          path: 'data/orders.jsonl',
          format: 'jsonl',
          columns: { user: 'STRING', amount: 'DOUBLE', ts: 'BIGINT' },
          eventTime: { field: 'ts', maxOutOfOrderness: '5s' },
        },
      },
      { id: 'big', type: 'filter', config: { where: 'amount >= 10' } },
      {
        id: 'per_user',
        type: 'window',
        config: {
          keyBy: 'user',
          window: { kind: 'tumbling', size: '10s' },
          aggregates: 'COUNT(*) AS n, SUM(amount) AS total',
        },
      },
      { id: 'out', type: 'sink.file', config: { path: 'out/x', format: 'jsonl' } },
    ],
    edges: [
      { from: 'orders', to: 'big' },
      { from: 'big', to: 'per_user' },
      { from: 'per_user', to: 'out' },
    ],
  };
}

export function node(job: JobDocument, id: string): JobNode {
  const n = job.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
}

export const errorsOf = (problems: JobProblem[]) => problems.filter((p) => p.severity !== 'warning');
export const lines = (problems: JobProblem[]) => problems.map((p) => `${p.path}: ${p.message}`);
