/**
 * The Flink parity corpus: each case is input rows and the nodes of a Weir job between a JSON-lines
 * file source and a file sink; the `source` field cites where Flink documents the behaviour. The
 * rows Flink produces for it are not written here: they are recorded from a run on real Flink
 * (recorded/, `npm run parity:record`, see recording.ts and README.md). Cases live in cases/*.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ParityCase {
  name: string;
  /** Where Flink's behaviour is documented: a doc URL or a Flink source file. */
  source: string;
  input: Array<Record<string, unknown>>;
  nodes: Array<{ type: string; config: Record<string, unknown> }>;
  /** Flink fails this job (its recording holds Flink's error): a regular expression Weir's failure must match. */
  expectFailure?: string;
  eventTime?: { field: string; maxOutOfOrderness?: string };
  onBadRecord?: 'skip' | 'fail';
  columns?: Record<string, string>;
  /** A function the test grammar (dt-sql-parser) does not know although Flink does. */
  grammarGap?: string;
  /** Set by loadCorpus: `file.json#index`. */
  id: string;
}

export const CASES_DIR = fileURLToPath(new URL('./cases/', import.meta.url));

export function loadCorpus(): ParityCase[] {
  const out: ParityCase[] = [];
  for (const file of readdirSync(CASES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const { cases } = JSON.parse(readFileSync(join(CASES_DIR, file), 'utf8')) as { cases: Omit<ParityCase, 'id'>[] };
    cases.forEach((c, i) => out.push({ ...c, id: `${file}#${i}` }));
  }
  return out;
}

/** The case as a weir.job/v1 document reading `in.jsonl` and writing `out/`. */
export function caseJob(c: ParityCase): Record<string, unknown> {
  const chain = c.nodes.map((n, i) => ({ id: `n${i + 1}`, type: n.type, config: n.config }));
  const source = {
    id: 'src',
    type: 'source.file',
    config: {
      path: 'in.jsonl',
      format: 'jsonl',
      eventTime: c.eventTime ?? { field: 'ts' },
      ...(c.onBadRecord ? { onBadRecord: c.onBadRecord } : {}),
      ...(c.columns ? { columns: c.columns } : {}),
    },
  };
  const sink = { id: 'out', type: 'sink.file', config: { path: 'out', format: 'jsonl' } };
  const nodes = [source, ...chain, sink];
  const edges = nodes.slice(1).map((n, i) => ({ from: nodes[i].id, to: n.id }));
  return {
    format: 'weir.job/v1',
    name: `parity ${c.id}`,
    settings: { checkpointing: { interval: '1s' }, restart: { attempts: 0 } },
    nodes,
    edges,
  };
}

/** Input lines: rows get `ts` = 1000 * (i + 1) unless some row of the case says its own ts. */
export function inputLines(c: ParityCase): string {
  const ownTs = c.input.some((r) => Object.prototype.hasOwnProperty.call(r, 'ts'));
  return c.input.map((r, i) => JSON.stringify(ownTs ? r : { ...r, ts: 1000 * (i + 1) })).join('\n') + '\n';
}
