/**
 * Helpers of the importer tests over scripts that define views (relational, subqueries): the
 * import with its nodes by id and edges as text, the validator's errors but the missing sink,
 * where a piece of text is in the script, and the JSON-lines files an imported job reads.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateJob } from '../../../../engine/graph/validate.ts';
import { importFlinkSql } from '../../../../engine/import/flink-sql/index.ts';

/** The script imported: its job, problems, nodes by id and edges as `from->to[:port]`. */
export function importedScript(sql: string) {
  const { job, problems } = importFlinkSql(sql);
  const byId = Object.fromEntries(job.nodes.map((n) => [n.id, n]));
  const edges = job.edges.map((e) => `${e.from}->${e.to}${e.toPort ? `:${e.toPort}` : ''}`);
  return { sql, job, problems, byId, edges };
}

/** The job's errors, but for the missing sink (these scripts only define views). */
export function viewErrors(job: unknown): unknown[] {
  const v = validateJob(job);
  return v.ok ? [] : v.problems.filter((p) => p.severity === 'error' && !/at least one sink/.test(p.message));
}

/** 1-based line and column of `needle` in `text`. */
export function at(text: string, needle: string): [number, number] {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  return [i + 1, lines[i].indexOf(needle) + 1];
}

/** `rows` as the JSON-lines file `dir/file`. */
export function writeJsonl(dir: string, file: string, rows: object[]): void {
  writeFileSync(join(dir, file), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}
