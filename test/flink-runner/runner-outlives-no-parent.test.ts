/**
 * The Flink runner's JVM never outlives the process that started it: SIGKILL of `weir flink run`
 * while an unbounded job runs on the local MiniCluster must take the JVM down too (ParentWatch.java
 * watches the stdin pipe Weir leaves open), or a killed CLI, app or test leaves a cluster running.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, ROOT, buildRunner, flinkSkipReason } from './runner-support.ts';

/** Pids of `java` processes that descend from `root` (read from /proc). */
function javaDescendants(root: number): number[] {
  const parent = new Map<number, number>();
  const command = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command sits in parentheses and may hold spaces: the ppid is the 2nd field after it.
      const close = stat.lastIndexOf(')');
      parent.set(Number(name), Number(stat.slice(close + 2).split(' ')[1]));
      command.set(Number(name), stat.slice(stat.indexOf('(') + 1, close));
    } catch {
      // The process ended while we looked.
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...command].filter(([pid, cmd]) => cmd === 'java' && under(pid)).map(([pid]) => pid);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(cond: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
    const jvms = javaDescendants(cli.pid!);
    assert.equal(jvms.length, 1, `one runner JVM under weir flink run, found ${jvms.join(', ')}\n${log}`);
    t.after(() => {
      for (const pid of jvms) if (alive(pid)) process.kill(pid, 'SIGKILL');
    });
    cli.kill('SIGKILL');
    await waitFor(() => !alive(jvms[0]), `the runner JVM ${jvms[0]} to exit after its parent was killed`, 60_000);
  });
});
