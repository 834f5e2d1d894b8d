/**
 * A file sink's committed changelog (`changelog-json`), in commit order (the sink's manifest), and
 * its strict materialization: +I of a present key, or -U/-D of a row that is not exactly the
 * present one, is a violation (a doubled or lost change), never silently absorbed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonical } from '../support/run-helpers.ts';

export function committedChangelog(dir: string): Array<{ op: string; data: Record<string, unknown> }> {
  return committedRows(dir) as Array<{ op: string; data: Record<string, unknown> }>;
}

/** A file sink's committed lines (any JSON-lines format), parsed, in commit order. */
export function committedRows(dir: string): Array<Record<string, unknown>> {
  const manifest = join(dir, '.weir-sink-manifest.jsonl');
  if (!existsSync(manifest)) return [];
  const out: Array<Record<string, unknown>> = [];
  // A recovered commit is recorded again (committed before the crash, re-sent after): read a file once.
  const seen = new Set<string>();
  for (const line of readFileSync(manifest, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let e: { kind: string; files?: string[] };
    try {
      e = (JSON.parse(line) as { e: { kind: string; files?: string[] } }).e;
    } catch {
      continue; // a torn last line: its commit never happened
    }
    if (e.kind !== 'commit') continue;
    for (const f of e.files ?? []) {
      if (seen.has(f)) continue;
      seen.add(f);
      const p = join(dir, f);
      if (!existsSync(p)) continue;
      for (const l of readFileSync(p, 'utf8').split('\n')) if (l.trim()) out.push(JSON.parse(l));
    }
  }
  return out;
}

export function materialize(
  changes: Array<{ op: string; data: Record<string, unknown> }>,
  key: string,
): { table: Map<unknown, string>; violations: string[] } {
  const table = new Map<unknown, string>();
  const violations: string[] = [];
  changes.forEach((c, i) => {
    const k = c.data[key];
    const row = canonical(c.data);
    if (c.op === '+I' || c.op === '+U') {
      if (table.has(k)) violations.push(`#${i} ${c.op} of present key ${String(k)}`);
      table.set(k, row);
    } else {
      const cur = table.get(k);
      if (cur !== row) violations.push(`#${i} ${c.op} ${row} but the row is ${cur ?? 'absent'}`);
      table.delete(k);
    }
  });
  return { table, violations };
}
