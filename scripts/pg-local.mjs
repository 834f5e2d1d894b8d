#!/usr/bin/env node
/**
 * A local PostgreSQL for trying Weir's PostgreSQL source and sink: `npm run pg:local` creates a
 * cluster in ./.weir-pg (or $WEIR_PG_DIR) the first time, with what they need (logical WAL for
 * CDC, prepared transactions for the exactly-once sink), starts it on port 5499 ($WEIR_PG_PORT),
 * runs `--setup <file.sql>` if given, and prints the URL. `npm run pg:local -- stop` stops it.
 * Trust authentication on 127.0.0.1 only: a sandbox, not a server.
 *
 * PostgreSQL refuses to run as root; as root the server runs as the `postgres` user (runuser).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

const dir = resolve(process.env.WEIR_PG_DIR ?? '.weir-pg');
const port = Number(process.env.WEIR_PG_PORT ?? 5499);
const data = join(dir, 'data');
const asRoot = process.getuid?.() === 0;

function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return join(root, versions[0], 'bin');
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found.replace(/\/initdb$/, '');
  console.error('pg:local: PostgreSQL is not installed (apt-get install postgresql, or brew install postgresql)');
  process.exit(1);
}

function run(bin, args) {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`pg:local: ${bin} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
}

const bin = binDir();
if (process.argv[2] === 'stop') {
  if (existsSync(data)) run(join(bin, 'pg_ctl'), ['-D', data, '-w', 'stop']);
  process.exit(0);
}

if (!existsSync(join(data, 'PG_VERSION'))) {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8']);
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = logical',
      'max_prepared_transactions = 64',
      'max_replication_slots = 16',
      'max_wal_senders = 16',
      '',
    ].join('\n'),
  );
}
const status = spawnSync(
  asRoot ? 'runuser' : join(bin, 'pg_ctl'),
  asRoot ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, 'status'] : ['-D', data, 'status'],
);
if (status.status !== 0) run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', 'start']);

const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
const setup = process.argv.indexOf('--setup');
if (setup > 0) {
  const file = process.argv[setup + 1];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(readFileSync(file, 'utf8'));
  await client.end();
  console.error(`pg:local: ran ${file}`);
}
console.error(`pg:local: PostgreSQL is running in ${dir} (stop it with: npm run pg:local -- stop)`);
console.log(url);
