/**
 * A throwaway PostgreSQL cluster for tests: `initdb` into a temporary folder, `pg_ctl` on a free
 * port with its socket in a temporary folder, logical WAL and prepared transactions on, stopped and
 * deleted afterwards. PostgreSQL refuses to run as root, and CI runs as root, so the server runs as
 * the `postgres` user through `runuser` (the Debian package creates that user).
 *
 * A missing PostgreSQL is an error, not a skip: `.ci/run` installs it, and a test that silently
 * skips proves nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** `postgresql://postgres@127.0.0.1:PORT/postgres` (trust authentication, any password works). */
  url: string;
  port: number;
  /** Runs one statement on a fresh connection (tests use it for setup and to read the reference). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Stops the server (immediate mode) and deletes its folders. Safe to call twice. */
  stop(): Promise<void>;
}

export function pgBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error('PostgreSQL is not installed: apt-get install postgresql (tests need initdb and pg_ctl)');
  return join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary as the `postgres` user when we are root, else as ourselves. */
function pgExec(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

function giveToPostgres(dir: string): void {
  if (!asRoot) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  const base = mkdtempSync(join(tmpdir(), 'weir-pg-'));
  chmodSync(base, 0o755);
  const data = join(base, 'data');
  const sock = join(base, 'sock');
  for (const d of [base]) giveToPostgres(d);
  pgExec(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  pgExec('/bin/mkdir', ['-p', sock]);
  const port = await freePort();
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${sock}'`,
      'wal_level = logical',
      'max_prepared_transactions = 64',
      'max_replication_slots = 16',
      'max_wal_senders = 16',
      'max_connections = 100',
      // The database is thrown away: durability of the test cluster is not what the tests check.
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  pgExec(join(bin, 'pg_ctl'), ['-D', data, '-l', join(base, 'server.log'), '-w', '-t', '60', 'start']);
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    async query(sql, params) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        pgExec(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}
