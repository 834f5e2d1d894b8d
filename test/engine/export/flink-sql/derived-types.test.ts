// Export and the planner use the same types (issue 22): for every example, each sink table of the
// Flink SQL export declares the columns and types edgeSchemas derives for the edge into that sink.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { edgeSchemas } from '../../../../engine/graph/edge-schemas.ts';
import { fileSampler } from '../../../../engine/connectors/sampled-types.ts';
import { ROOT } from '../../cli/cli-helpers.ts';

/**
 * Known differences, each with its cause: Weir's SUM of an INT column is a BIGINT
 * (engine/sql/aggregates.ts aggregateResultType), Flink's is an INT, which the export declares.
 */
const KNOWN: Record<string, string> = { 'union-late -> totals: qty': 'INT vs BIGINT' };

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

test('every example: the export declares the derived types of each sink input', () => {
  let compared = 0;
  const dir = join(ROOT, 'examples');
  for (const name of readdirSync(dir)) {
    const file = join(dir, name, 'job.weir.json');
    if (!existsSync(file)) continue;
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const baseDir = join(dir, name);
    const sampled = fileSampler(baseDir);
    const v = validateJob(doc, { baseDir, sampled });
    assert.ok(v.ok, `${name}: ${JSON.stringify(!v.ok && v.problems)}`);
    const tables = sinkTables(exportFlinkSql(v.job).text);
    const schemas = edgeSchemas(doc, { sampled });
    doc.edges.forEach((e: { from: string; to: string }, i: number) => {
      const sink = doc.nodes.find((n: { id: string }) => n.id === e.to);
      const exported = tables.get(e.to);
      if (!sink.type.startsWith('sink.') || !exported) return;
      assert.ok(schemas[i].known, `${name} -> ${e.to}: schema unknown`);
      const derived = schemas[i].columns.map((c) => `${c.name} ${c.type}`);
      assert.equal(derived.length, exported.length, `${name} -> ${e.to}: ${derived} vs ${exported}`);
      derived.forEach((d, k) => {
        const col = d.split(' ')[0];
        if (KNOWN[`${name} -> ${e.to}: ${col}`]) return;
        assert.equal(d, exported[k], `${name} -> ${e.to}`);
        compared++;
      });
    });
  }
  assert.ok(compared > 50, `${compared} columns compared`);
});
