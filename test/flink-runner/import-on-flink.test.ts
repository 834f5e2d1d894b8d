/**
 * Import checked on real Flink: hand-written Flink SQL scripts (scripts/*.sql) are imported onto
 * a canvas with `importFlinkSql` and run in Weir, and the same files run on Flink 1.20 and 2.x
 * through the runner; every file sink must hold the same rows (multisets; changelogs folded into tables;
 * timestamps compared as instants, since Flink writes TIMESTAMP(3) as `2024-01-15 09:00:00`).
 * `${DIR}` in a script is the folder it runs in (its data and its sinks').
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importFlinkSql } from '../../engine/import/flink-sql/index.ts';
import { FLINK_LINES, startFlinkRunner } from '../../engine/flink/runner-process.ts';
import { runJobInProcess, type InProcessRun } from '../support/harness/run-in-process.ts';
import { readFlinkSink } from './parity-cases.ts';
import { normalizeRows } from '../flink-parity/rows.ts';
import { ROOT, buildRunner, flinkSkipReason } from './runner-support.ts';

const SCRIPTS = fileURLToPath(new URL('./scripts/', import.meta.url));

/** The data every script may read: the orders example's orders, and clicks made here. */
function writeData(dir: string): void {
  cpSync(join(ROOT, 'examples', 'orders-per-user', 'data', 'orders.jsonl'), join(dir, 'orders.jsonl'));
  const pages = ['home', 'cart', 'search', 'item'];
  const clicks = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({ page: pages[(i * 7) % 4], uid: (i * 13) % 17, ts: 1_700_000_000_000 + i * 250 }),
  );
  writeFileSync(join(dir, 'clicks.jsonl'), `${clicks.join('\n')}\n`);
}

interface ImportCase {
  name: string;
  weirDir: string;
  flinkScript: string;
  sinks: Array<{ id: string; path: string; format: string }>;
  problems: string[];
  weir?: InProcessRun | Error;
}

const skip = flinkSkipReason();
for (const line of FLINK_LINES) {
  describe(`hand-written Flink SQL imported into Weir vs run on Flink ${line}`, { skip }, () => {
    const root = mkdtempSync(join(tmpdir(), `weir-flink-import-${line}-`));
    const cases: ImportCase[] = [];
    const scriptEnds = new Map<string, { ok: boolean; error?: string }>();

    before(async () => {
      const classpath = buildRunner(line);
      for (const file of readdirSync(SCRIPTS)
        .filter((f) => f.endsWith('.sql'))
        .sort()) {
        const text = readFileSync(join(SCRIPTS, file), 'utf8');
        const name = basename(file, '.sql');
        const [weirDir, flinkDir] = ['weir', 'flink'].map((side) => join(root, name, side));
        for (const dir of [weirDir, flinkDir]) {
          mkdirSync(dir, { recursive: true });
          writeData(dir);
          writeFileSync(join(dir, file), text.replaceAll('${DIR}', dir));
        }
        const imported = importFlinkSql(text.replaceAll('${DIR}', weirDir), { baseDir: weirDir, name });
        const nodes = imported.job.nodes as Array<{
          id: string;
          type: string;
          config: { path?: string; format?: string };
        }>;
        cases.push({
          name,
          weirDir,
          flinkScript: join(flinkDir, file),
          sinks: nodes
            .filter((n) => n.type === 'sink.file')
            .map((n) => ({ id: n.id, path: n.config.path!, format: n.config.format ?? 'jsonl' })),
          problems: imported.problems
            .filter((p) => p.severity === 'error')
            .map((p) => `${p.line}:${p.column} ${p.message}`),
          weir: await runJobInProcess(imported.job, weirDir).catch((e: unknown) => e as Error),
        });
      }
      const flink = await startFlinkRunner({ line, scripts: cases.map((c) => c.flinkScript) }, classpath).result;
      for (const e of flink.events) if (e.event === 'scriptEnd') scriptEnds.set(e.file, { ok: e.ok, error: e.error });
    });

    after(() => rmSync(root, { recursive: true, force: true }));

    for (const file of readdirSync(SCRIPTS)
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      const name = basename(file, '.sql');
      it(`${file}: the same rows`, () => {
        const c = cases.find((x) => x.name === name)!;
        assert.deepEqual(c.problems, [], 'the script imports without errors');
        assert.ok(!(c.weir instanceof Error), String(c.weir));
        const weir = c.weir!;
        assert.equal(weir.result.status, 'finished', weir.result.cause);
        const end = scriptEnds.get(c.flinkScript);
        assert.equal(end?.ok, true, end?.error ?? 'Flink never ran the script');
        assert.ok(c.sinks.length > 0);
        for (const sink of c.sinks) {
          const flinkRows = readFlinkSink(join(c.flinkScript, '..', sink.path), sink.format, []);
          const weirRows = normalizeRows(weir.sinks[sink.id] ?? [], sink.format, { times: true });
          assert.ok(weirRows.length > 0, `sink '${sink.id}' has rows`);
          assert.deepEqual(
            normalizeRows(flinkRows, sink.format === 'changelog-json' ? 'debezium-json' : sink.format, { times: true }),
            weirRows,
            `sink '${sink.id}': Flink's rows vs Weir's`,
          );
        }
      });
    }
  });
}
