/**
 * `weir serve [--port N] [--workspace DIR] [--allow-env NAME,...] [--flink-gateway URL] [--open] [--example NAME]`:
 * the designer in a browser.
 * Serves the built renderer (dist/renderer) and the host API over a WebSocket on 127.0.0.1 only,
 * guarded by a per-start token. The first stdout line is exactly
 * `Weir is running at http://127.0.0.1:PORT/?token=...` (scripts and tests read it); everything
 * else goes to stderr. Runs until SIGINT/SIGTERM, then stops every run and exits 0.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalHost } from '../host/node/local-host.ts';
import { materializeExample } from '../host/node/examples.ts';
import { startWebServer } from '../host/node/web-server.ts';
import { envAllowance, parseAllowEnv } from '../host/node/env-allowance.ts';
import { fileSettingsStore } from '../host/node/settings-store.ts';
import { HostError } from '../host/common/errors.ts';
import { gatewayUrl } from '../host/common/flink-schemas.ts';
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, processIO, type CliIO } from './output.ts';
import { version } from './version.ts';

export const SERVE_USAGE = `Usage: weir serve [--port N] [--workspace DIR] [--allow-env NAME,...] [--flink-gateway URL]
                  [--open] [--example NAME]

Serves the Weir designer and engine at http://127.0.0.1:PORT/ (this machine only). The address
printed on the first line carries a token that every request must present.

  --port N          port to listen on (default 4700; 0 = any free port)
  --workspace DIR   folder where job files are listed, opened and saved (default: current folder);
                    paths outside it are refused
  --allow-env NAMES environment variables (comma-separated) a job may read as its password
                    (passwordEnv) besides those starting with WEIR_; any other is refused
  --flink-gateway URL  a Flink SQL Gateway Run on Flink may submit to besides those on this machine
                    and the one saved in the settings (repeatable); any other is refused
  --open            open the address in the default browser
  --example NAME    copy a bundled example into the workspace and open it (e.g. orders-per-user)`;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where `weir serve` keeps the app's settings (getSettings/setSettings), in its workspace. */
export const SERVE_SETTINGS_FILE = '.weir-settings.json';

/** Builds the renderer when it is missing and the sources are here; false when it cannot. */
function ensureRenderer(rendererDir: string, io: CliIO): boolean {
  if (existsSync(join(rendererDir, 'index.html'))) return true;
  const build = join(ROOT, 'scripts', 'build.mjs');
  if (!existsSync(join(ROOT, 'scripts', 'renderer.vite.config.ts')) || !existsSync(build)) return false;
  io.err('weir serve: building the renderer (dist/renderer is missing)...');
  // stdout stays reserved for the address line.
  const r = spawnSync(process.execPath, [build, '--renderer'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  return r.status === 0 && existsSync(join(rendererDir, 'index.html'));
}

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => processIO.err(`weir serve: could not open a browser; open ${url} yourself`));
    child.unref();
  } catch {
    processIO.err(`weir serve: could not open a browser; open ${url} yourself`);
  }
}

export async function serveCommand(argv: string[], io: CliIO = processIO): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', short: 'p' },
      workspace: { type: 'string', short: 'w' },
      open: { type: 'boolean' },
      example: { type: 'string' },
      'allow-env': { type: 'string' },
      'flink-gateway': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.out(SERVE_USAGE);
    return EXIT_OK;
  }
  const port = values.port === undefined ? 4700 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`weir serve: --port: expected a port number 0-65535, got '${values.port}'`);
    return EXIT_INVALID;
  }
  const allowEnv = parseAllowEnv(values['allow-env']);
  if ('bad' in allowEnv) {
    io.err(`weir serve: --allow-env: '${allowEnv.bad}' is not an environment variable name`);
    return EXIT_INVALID;
  }
  const gateways = values['flink-gateway'] ?? [];
  const badGateway = gateways.find((g) => !gatewayUrl.safeParse(g).success);
  if (badGateway !== undefined) {
    io.err(`weir serve: --flink-gateway: '${badGateway}' is not an http(s) URL such as http://flink-gw:8083`);
    return EXIT_INVALID;
  }
  const workspace = resolve(values.workspace ?? process.cwd());
  // A workspace that does not exist yet is created (like `git init DIR`); a file in its place is refused.
  if (!existsSync(workspace)) {
    try {
      mkdirSync(workspace, { recursive: true });
      io.err(`weir serve: created workspace folder ${workspace}`);
    } catch (err) {
      io.err(`weir serve: --workspace: cannot create ${workspace}: ${(err as Error).message}`);
      return EXIT_INVALID;
    }
  }
  if (!statSync(workspace).isDirectory()) {
    io.err(`weir serve: --workspace: ${workspace} is not a folder`);
    return EXIT_INVALID;
  }
  const examplesDir = join(ROOT, 'examples');
  let initialPath: string | null = null;
  if (values.example) {
    try {
      initialPath = await materializeExample(examplesDir, values.example, workspace);
    } catch (err) {
      io.err(`weir serve: --example: ${err instanceof HostError ? err.message : (err as Error).message}`);
      return EXIT_INVALID;
    }
  }
  const rendererDir = join(ROOT, 'dist', 'renderer');
  if (!ensureRenderer(rendererDir, io)) {
    io.err('weir serve: the renderer is not built (dist/renderer); run `npm run build` - serving the API only');
  }

  const host = createLocalHost({
    workspace,
    examplesDir,
    transport: 'websocket',
    spareTaskProcess: true,
    initialPath,
    version: version(),
    allowEnv: envAllowance(allowEnv.names),
    flinkGateways: gateways,
    // The browser has no electron-store: the app's settings live beside the documents they serve.
    settings: fileSettingsStore(join(workspace, SERVE_SETTINGS_FILE)),
  });
  let server;
  try {
    server = await startWebServer({ host, rendererDir, port });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    io.err(
      `weir serve: cannot listen on 127.0.0.1:${port}: ${e.code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : e.message}`,
    );
    await host.dispose();
    return EXIT_FAILURE;
  }
  io.out(`Weir is running at ${server.url}`);
  io.err(`weir serve: workspace ${workspace}; press Ctrl+C to stop`);
  if (values.open) openInBrowser(server.url);

  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.err('weir serve: stopping');
  await host.dispose();
  await server.close();
  return EXIT_OK;
}
