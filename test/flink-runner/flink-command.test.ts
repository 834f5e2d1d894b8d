/**
 * `weir flink run` end to end: the real CLI, the real runner, a real Flink 1.20 MiniCluster.
 * A job file is exported and runs to its end; a script Flink rejects or fails ends with Flink's
 * error in one line; a machine without Java gets one clear line.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, buildRunner, flinkSkipReason, weir } from './runner-support.ts';

const hasStackTrace = (text: string) => /^\s+at .+:\d+:\d+\)?$/m.test(text);

function scratch(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-flink-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('weir flink run without Java', () => {
  it('says in one line that Java is missing', async (t) => {
    const dir = scratch(t);
    cpSync(join(ROOT, 'examples', 'orders-per-user'), join(dir, 'job'), { recursive: true });
    // A PATH with node and nothing else: no java to find.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const r = await weir(['flink', 'run', join(dir, 'job', 'job.weir.json')], { env: { PATH: bin } });
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /^weir flink run: Java is not installed: running on Flink needs Java 17 or newer/);
  });
});

const skip = flinkSkipReason();
describe('weir flink run on Flink 1.20', { skip }, () => {
  before(() => {
    buildRunner('1.20');
  });

  it('exports a job file, runs it at parallelism 2 to its end and commits its rows', async (t) => {
    const dir = scratch(t);
    cpSync(join(ROOT, 'examples', 'orders-per-user'), dir, { recursive: true });
    const r = await weir(['flink', 'run', 'job.weir.json', '--parallelism', '2'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Flink 1\.20\.\d+ on a local MiniCluster \(2 slot\(s\)\)/);
    assert.match(r.stderr, /job [0-9a-f]{32} submitted/);
    assert.match(r.stderr, /job [0-9a-f]{32} FINISHED in/);
    assert.match(r.stderr, /\(x2\): in \d+, out \d+/, 'vertices run at the parallelism asked for');
    const out = join(dir, 'out', 'per_user');
    const rows = readdirSync(out)
      .filter((f) => !f.startsWith('.'))
      .flatMap((f) => readFileSync(join(out, f), 'utf8').split('\n').filter(Boolean));
    assert.ok(rows.length > 0, 'the file sink committed rows');
    assert.ok(rows.every((l) => typeof JSON.parse(l).user === 'string'));
  });

  it("ends a failing job with Flink's error in one line", async (t) => {
    const dir = scratch(t);
    const script = join(dir, 'fail.sql');
    writeFileSync(
      script,
      [
        "SET 'restart-strategy.type' = 'none';",
        "CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');",
        "CREATE TABLE s (a INT) WITH ('connector' = 'blackhole');",
        '-- the division fails at run time, in a task',
        'INSERT INTO s SELECT 10 / (a - a) FROM t;',
        '',
      ].join('\n'),
    );
    const r = await weir(['flink', 'run', script, '--quiet'], { cwd: dir });
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.at(-1), 'weir flink run: line 5: ArithmeticException: / by zero', r.stderr);
    assert.ok(!hasStackTrace(r.stderr), r.stderr);
  });

  it('names the line of a statement Flink rejects', async (t) => {
    const dir = scratch(t);
    const script = join(dir, 'bad.sql');
    writeFileSync(
      script,
      "CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n" +
        "CREATE TABLE s (a INT) WITH ('connector' = 'blackhole');\n" +
        'INSERT INTO s SELECT b FROM t;\n',
    );
    const r = await weir(['flink', 'run', script], { cwd: dir });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim().split('\n').at(-1),
      "weir flink run: line 3: SqlValidatorException: Column 'b' not found in any table",
    );
  });
});
