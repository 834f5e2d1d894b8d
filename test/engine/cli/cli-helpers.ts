// Runs the real `weir` binary (bin/weir.mjs) as a subprocess and keeps a temp folder per test.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const BIN = join(ROOT, 'bin', 'weir.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function weir(args: string[], cwd = ROOT): Promise<CliResult> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', rej);
    child.on('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

export function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeJob(dir: string, name: string, job: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof job === 'string' ? job : JSON.stringify(job, null, 2));
  return file;
}

/** A stack trace looks like `    at fn (file:line:col)`. */
export const hasStackTrace = (text: string) => /^\s+at .+:\d+:\d+\)?$/m.test(text);
