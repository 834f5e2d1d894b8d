/** `weir preview JOB.json`: the job's operators over a sample of each source, sinks off (runtime/preview). */

import { parseArgs } from 'node:util';
import { loadJob } from './load-job.ts';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, printProblems, type CliIO } from './output.ts';
import { previewRun, type PreviewResult } from '../runtime/preview/preview-run.ts';
import { traceRecord, type TraceResult } from '../runtime/preview/trace-record.ts';
import type { NormalizedJob } from '../graph/types.ts';

export const PREVIEW_USAGE = `Usage: weir preview JOB.json [--records N] [--rows N] [--trace SOURCE:INDEX] [--json]

Runs the job's operators in this process over the first N records of each source, with sinks
off (nothing is written, no checkpoint is taken), and prints what each node made of them: rows
in and out, late and bad records, and the first rows of each output. At the end of the sample
windows fire as at the end of a bounded input.

  --records N   records read from each source (default 100)
  --rows N      rows printed per node and port (default 5)
  --trace SOURCE:INDEX
                the path of one record (the INDEX-th of source SOURCE, from 0): per node, the
                rows it contributed to and the rows it replaced (the sample run with and without it)
  --json        print the whole result as one JSON object`;

export async function previewCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string' },
      rows: { type: 'string' },
      trace: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(PREVIEW_USAGE);
    return EXIT_OK;
  }
  const records = count(values.records, 100);
  const rows = count(values.rows, 5);
  if (positionals.length !== 1 || records === null || rows === null) {
    io.err(
      positionals.length !== 1
        ? 'weir preview: give one JOB.json'
        : 'weir preview: --records and --rows take a whole number ≥ 1',
    );
    io.err(PREVIEW_USAGE);
    return EXIT_INVALID;
  }
  const r = await loadJob(positionals[0]);
  if (!r.ok) {
    printProblems(io, r.problems);
    return EXIT_INVALID;
  }
  if (values.trace !== undefined) return trace(r.job, values.trace, records, !!values.json, io);
  let result: PreviewResult;
  try {
    result = await previewRun(r.job, { recordsPerSource: records, keepRows: Math.max(rows, 200) });
  } catch (e) {
    io.err(`weir preview: ${(e as Error)?.message ?? String(e)}`);
    return EXIT_FAILURE;
  }
  if (values.json) {
    io.out(JSON.stringify(result));
    return EXIT_OK;
  }
  for (const node of r.job.nodes) {
    const p = result.nodes[node.id];
    const parts = [`${p.rowsIn} in`];
    for (const [port, o] of Object.entries(p.out)) parts.push(`${o.count} out${port === 'out' ? '' : ` on ${port}`}`);
    if (p.lateRecords) parts.push(`${p.lateRecords} late`);
    if (p.badRecords.length) parts.push(`${p.badRecords.length} bad`);
    const source = result.sources[node.id];
    if (source) parts.push(source.ended ? 'input ended' : `stopped at ${source.records} records`);
    io.out(`${node.id} (${node.type}): ${parts.join(', ')}`);
    for (const b of p.badRecords.slice(0, rows)) io.out(`  bad  ${b.where}: ${b.message}`);
    for (const [port, o] of Object.entries(p.out))
      for (const x of o.rows.slice(0, rows))
        io.out(`  ${port === 'out' ? '' : `${port} `}${x.kind ? `${x.kind} ` : ''}${JSON.stringify(x.row)}`);
    for (const x of (p.wouldWrite ?? []).slice(0, rows)) io.out(`  would write ${JSON.stringify(x.row)}`);
  }
  io.out(`previewed in ${result.elapsedMs} ms; nothing written`);
  return EXIT_OK;
}

async function trace(job: NormalizedJob, spec: string, records: number, json: boolean, io: CliIO): Promise<number> {
  const m = /^(.+):(\d+)$/.exec(spec);
  const source = m ? job.nodes.find((n) => n.id === m[1]) : undefined;
  if (!m || !source) {
    io.err(
      `weir preview: --trace takes SOURCE:INDEX with SOURCE one of the job's node ids (${job.nodes.map((n) => n.id).join(', ')})`,
    );
    return EXIT_INVALID;
  }
  const index = Number(m[2]);
  let t: TraceResult;
  try {
    t = await traceRecord(job, { source: source.id, index }, { recordsPerSource: Math.max(records, index + 1) });
  } catch (e) {
    io.err(`weir preview: ${(e as Error)?.message ?? String(e)}`);
    return EXIT_FAILURE;
  }
  if (json) {
    io.out(JSON.stringify(t));
    return EXIT_OK;
  }
  if (!t.record) {
    io.err(`weir preview: source '${source.id}' gave fewer than ${index + 1} records`);
    return EXIT_FAILURE;
  }
  io.out(`record ${index} of ${source.id}: ${JSON.stringify(t.record.row)}`);
  for (const node of job.nodes) {
    const n = t.nodes[node.id];
    if (!n) continue;
    io.out(`${node.id} (${node.type})`);
    for (const x of n.contributed)
      io.out(`  + ${x.port === 'out' ? '' : `${x.port} `}${x.kind ? `${x.kind} ` : ''}${JSON.stringify(x.row)}`);
    for (const x of n.replaced)
      io.out(`  - ${x.port === 'out' ? '' : `${x.port} `}${x.kind ? `${x.kind} ` : ''}${JSON.stringify(x.row)}`);
  }
  io.out('(+ rows it contributed to; - rows it replaced)');
  return EXIT_OK;
}

function count(text: string | undefined, fallback: number): number | null {
  if (text === undefined) return fallback;
  return /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : null;
}
