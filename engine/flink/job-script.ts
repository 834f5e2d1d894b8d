/**
 * A Weir job as the Flink SQL script Flink runs: exported with Weir's own exporter
 * (engine/export/flink-sql, as `weir export --format flink-sql`) into a private temporary folder,
 * which `dispose()` removes. `weir flink run JOB.weir.json` and the app's "Run on Flink" both start
 * from here, so a job runs on Flink the same way from either.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobProblem, NormalizedJob } from '../graph/types.ts';
import { exportFlinkSql } from '../export/flink-sql/index.ts';
import type { FlinkLine } from './runner-process.ts';

export interface JobScript {
  /** The script's file, for the runner. */
  file: string;
  /** The script's text, for a SQL Gateway. */
  text: string;
  /** What the exporter warns about (a behaviour Flink does not share, a setting it ignores). */
  warnings: JobProblem[];
  dispose(): void;
}

export function writeJobScript(job: NormalizedJob, opts: { line: FlinkLine; pathPrefix?: string }): JobScript {
  const exported = exportFlinkSql(job, {
    flinkVersion: opts.line,
    ...(opts.pathPrefix !== undefined ? { pathPrefix: opts.pathPrefix } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'weir-flink-'));
  const file = join(dir, 'job.sql');
  writeFileSync(file, exported.text);
  return {
    file,
    text: exported.text,
    warnings: exported.warnings.map((w) => ({ ...w, severity: w.severity ?? 'warning' })),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
