/**
 * Export and the planner use the same types (issue 22): each sink table of a job's Flink SQL export
 * declares exactly the columns and types edgeSchemas derives for the edge into that sink. The
 * export has no inference of its own (engine/export/flink-sql/planner-types.ts): it asks the
 * planner, over the sources as the script declares them. Those differ from Weir's own reading in
 * exactly two ways, spelled out here (`scriptSources`), and nowhere else. Used by
 * derived-types.test.ts (examples) and test/flink-parity/derived-types.test.ts (parity cases).
 */
import assert from 'node:assert/strict';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { nexmarkColumns } from '../../../../engine/export/flink-sql/nexmark-source.ts';
import { edgeSchemas } from '../../../../engine/graph/edge-schemas.ts';
import { isNexmarkPort } from '../../../../engine/graph/nexmark.ts';
import { fileSampler } from '../../../../engine/connectors/sampled-types.ts';
import type { JobDocument } from '../../../../engine/graph/types.ts';

function sinkTables(sql: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of sql.matchAll(/CREATE TABLE `?([\w-]+)`? \(\n([\s\S]*?)\n\) WITH/g)) {
    const cols = m[2]
      .split('\n')
      .map((l) => l.trim().replace(/,$/, ''))
      .filter((l) => l !== '' && !/^(PRIMARY|WATERMARK)|\bAS\b/.test(l))
      .map((l) => l.replace(/`/g, ''));
    out.set(m[1], cols);
  }
  return out;
}

/**
 * The sources as the script declares them, where that is not Weir's reading: Nexmark's dateTime
 * and expires are the suite's TIMESTAMP(3) (Weir: epoch-millisecond BIGINTs), and a file column
 * declared TIMESTAMP is read as its ISO-8601 text (Flink's formats refuse 'T...Z').
 */
function scriptSources(doc: JobDocument) {
  return (nodeId: string, port: string): Record<string, string> | undefined => {
    if (isNexmarkPort(port)) return Object.fromEntries(nexmarkColumns(port).map((c) => [c.name, c.type]));
    const node = doc.nodes.find((n) => n.id === nodeId);
    const declared =
      node?.type === 'source.file' ? (node.config as { columns?: Record<string, string> }).columns : null;
    if (!declared || !Object.values(declared).some((t) => /^TIMESTAMP/i.test(t))) return undefined;
    return Object.fromEntries(Object.entries(declared).map(([n, t]) => [n, /^TIMESTAMP/i.test(t) ? 'STRING' : t]));
  };
}

export interface Tally {
  compared: number;
  jobs: number;
  /** Sink columns whose Weir type differs from the script's, as `job -> sink: column`. */
  differing: string[];
}

export function compareSinkTypes(name: string, doc: JobDocument, baseDir: string, tally: Tally): void {
  const sampled = fileSampler(baseDir);
  const v = validateJob(doc, { baseDir, sampled });
  assert.ok(v.ok, `${name}: ${JSON.stringify(!v.ok && v.problems)}`);
  const tables = sinkTables(exportFlinkSql(v.job).text);
  const planned = edgeSchemas(doc, { sampled, sourceTypes: scriptSources(doc) });
  const weirs = edgeSchemas(doc, { sampled });
  tally.jobs++;
  doc.edges.forEach((e, i) => {
    const sink = doc.nodes.find((n) => n.id === e.to)!;
    const exported = tables.get(e.to);
    if (!sink.type.startsWith('sink.') || !exported) return;
    assert.ok(planned[i].known, `${name} -> ${e.to}: schema unknown`);
    const derived = planned[i].columns.map((c) => `${c.name} ${c.type}`);
    assert.deepEqual(exported, derived, `${name} -> ${e.to}`);
    tally.compared += derived.length;
    planned[i].columns.forEach((c, k) => {
      if (weirs[i].columns[k]?.type !== c.type) tally.differing.push(`${name} -> ${e.to}: ${c.name}`);
    });
  });
}
