/**
 * The Flink runner's JVM never outlives the process that started it: SIGKILL of `weir flink run`
 * while an unbounded job runs on the local MiniCluster must take the JVM down too (ParentWatch.java
 * watches the stdin pipe Weir leaves open), or a killed CLI, app or test leaves a cluster running.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, ROOT, buildRunner, flinkSkipReason } from './runner-support.ts';
import { childPids, isAlive, waitForExit } from '../support/run-helpers.ts';

/** The runner JVMs `weir flink run` spawned (it runs the CLI in-process, so they are its children). */
function javaChildren(pid: number): number[] {
  return childPids(pid).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'java';
    } catch {
      return false; // ended while we looked
    }
  });
}

describe('the Flink runner ends with its parent', { skip: flinkSkipReason() }, () => {
  before(() => {
    buildRunner('1.20');
  });

  it('SIGKILL of weir flink run during an unbounded job also ends the JVM', { timeout: 180_000 }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-flink-parent-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, 'forever.sql');
    writeFileSync(
      script,
      [
        "CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');",
        "CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');",
        'INSERT INTO sink SELECT n FROM gen;',
        '',
      ].join('\n'),
    );
    const cli = spawn(process.execPath, [BIN, 'flink', 'run', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => {
      if (cli.exitCode === null) cli.kill('SIGKILL');
    });
    let log = '';
    const submitted = new Promise<void>((resolve, reject) => {
      createInterface({ input: cli.stderr }).on('line', (line) => {
        log += `${line}\n`;
        if (/job \w+ submitted/.test(line)) resolve();
      });
      cli.on('exit', (code) => reject(new Error(`weir flink run exited (${code}) before the job ran:\n${log}`)));
    });
    await submitted;
    const jvms = javaChildren(cli.pid!);
    assert.equal(jvms.length, 1, `one runner JVM under weir flink run, found ${jvms.join(', ')}\n${log}`);
    t.after(() => {
      for (const pid of jvms) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    cli.kill('SIGKILL');
    await waitForExit(jvms, 60_000);
  });
});
