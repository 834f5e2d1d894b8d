/**
 * `weir flink run --gateway` and `weir flink stop --savepoint` against a real Flink SQL Gateway:
 * the runner's GatewayServer starts one in front of a local MiniCluster (Flink 1.20 and 2.x, each
 * from its Maven artifacts). An exported job runs to its end and commits its rows; an unbounded job submitted
 * with --detach is stopped with a savepoint; a failing job and an unreachable gateway end in one line.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlinkLine } from '../../engine/flink/runner-process.ts';
import { ROOT, buildRunner, flinkSkipReason, freePort, startGateway, weir } from './runner-support.ts';

const skip = flinkSkipReason();
const LINES: FlinkLine[] = ['1.20', '2.x'];

for (const line of LINES)
  describe(`weir flink on a Flink SQL Gateway (${line})`, { skip }, () => {
    const version = ['--flink-version', line];
    let gateway: ChildProcess | undefined;
    let url = '';
    const dir = mkdtempSync(join(tmpdir(), `weir-flink-gateway-${line}-`));

    before(async () => {
      const classpath = buildRunner(line);
      const started = startGateway(classpath, await freePort());
      gateway = started.child;
      url = await started.url;
    });

    after(() => {
      if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs an exported job to its end and prints its id', async () => {
      const job = join(dir, 'orders');
      cpSync(join(ROOT, 'examples', 'orders-per-user'), job, { recursive: true });
      const r = await weir(['flink', 'run', 'job.weir.json', ...version, '--gateway', url], { cwd: job });
      assert.equal(r.code, 0, r.stderr);
      const jobId = r.stdout.trim();
      assert.match(jobId, /^[0-9a-f]{32}$/);
      assert.match(
        r.stderr,
        new RegExp(`job ${jobId} submitted .*web UI http://127\\.0\\.0\\.1:\\d+/#/job/running/${jobId}`),
      );
      assert.match(r.stderr, new RegExp(`job ${jobId} FINISHED`));
      const out = join(job, 'out', 'per_user');
      const rows = readdirSync(out)
        .filter((f) => !f.startsWith('.'))
        .flatMap((f) => readFileSync(join(out, f), 'utf8').split('\n').filter(Boolean));
      assert.ok(rows.length > 0, 'the file sink committed rows');
    });

    it('stops a running job with a savepoint', async () => {
      const script = join(dir, 'unbounded.sql');
      writeFileSync(
        script,
        "CREATE TABLE t (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');\n" +
          "CREATE TABLE s (a BIGINT) WITH ('connector' = 'blackhole');\n" +
          'INSERT INTO s SELECT a FROM t;\n',
      );
      const run = await weir(['flink', 'run', script, ...version, '--gateway', url, '--detach', '--quiet']);
      assert.equal(run.code, 0, run.stderr);
      const jobId = run.stdout.trim();
      assert.match(jobId, /^[0-9a-f]{32}$/);
      const savepoints = join(dir, 'savepoints');
      const stop = await weir(['flink', 'stop', jobId, '--savepoint', savepoints, '--gateway', url]);
      assert.equal(stop.code, 0, stop.stderr);
      const path = stop.stdout.trim();
      assert.match(path, /savepoint-/);
      assert.ok(existsSync(join(new URL(path.replace(/^file:(?!\/\/)/, 'file://')).pathname, '_metadata')), path);
      const again = await weir(['flink', 'stop', jobId, '--savepoint', savepoints, '--gateway', url]);
      assert.equal(again.code, 1);
      assert.equal(
        again.stderr.trim(),
        `weir flink stop: FlinkJobNotFoundException: Could not find Flink job (${jobId})`,
      );
    });

    it("ends a failing job with Flink's error in one line", async () => {
      const script = join(dir, 'fail.sql');
      writeFileSync(
        script,
        "SET 'restart-strategy.type' = 'none';\n" +
          "CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n" +
          "CREATE TABLE s (a INT) WITH ('connector' = 'blackhole');\n" +
          'INSERT INTO s SELECT 10 / (a - a) FROM t;\n',
      );
      const r = await weir(['flink', 'run', script, ...version, '--gateway', url, '--quiet']);
      assert.equal(r.code, 1);
      assert.match(r.stderr.trim(), /^weir flink run: job [0-9a-f]{32} FAILED: ArithmeticException: \/ by zero$/);
    });

    it('says in one line when the gateway cannot be reached', async () => {
      const port = await freePort();
      const r = await weir(['flink', 'run', join(dir, 'fail.sql'), '--gateway', `http://127.0.0.1:${port}`]);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr.trim(),
        `weir flink run: cannot reach the SQL Gateway at http://127.0.0.1:${port} (ECONNREFUSED)`,
      );
    });
  });
