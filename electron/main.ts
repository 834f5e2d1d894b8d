/**
 * The Electron main process: one window, the engine host in this process, each run's operators in
 * a utilityProcess. The renderer reaches the host only through the preload's `window.weir`, and
 * every IPC call passes the guard (ipc-guard.ts).
 *
 * Security: contextIsolation, sandbox, no nodeIntegration, strict CSP (app-protocol.ts), every
 * navigation, new window, webview and permission request denied.
 */
import { app, BrowserWindow, Menu, dialog, ipcMain, session, shell } from 'electron';
import { denyAllPermissions } from './permissions.ts';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppCommand } from '../engine/host/common/api.ts';
import { createLocalHost, type LocalHost } from '../engine/host/node/local-host.ts';
import { envAllowance, parseAllowEnv } from '../engine/host/node/env-allowance.ts';
import { materializeExample } from '../engine/host/node/examples.ts';
import { APP_URL, registerAppScheme, serveRenderer } from './app-protocol.ts';
import { attachDocumentState, type DocumentWindow } from './document-window.ts';
import { serveHostOverIpc } from './ipc-guard.ts';
import { menuTemplate } from './menu.ts';
import { clampBounds, hostSettingsOf, openStore, rememberRecent, type AppStore } from './store.ts';
import { createUtilityLauncher } from './utility-launcher.ts';
import { secureWebPreferences } from './window-options.ts';

// Bundled to dist/electron/main.cjs: siblings are preload.cjs and task.cjs, the renderer is ../renderer.
const here = __dirname;
const RENDERER_DIR = join(here, '..', 'renderer');
const EXAMPLES_DIR = app.isPackaged ? join(process.resourcesPath, 'examples') : join(here, '..', '..', 'examples');
const JOB_FILTERS = [
  { name: 'Weir jobs', extensions: ['weir.json'] },
  { name: 'JSON', extensions: ['json'] },
];

registerAppScheme();
// A second start focuses the first window instead of running a second host on the same files.
const primary = app.requestSingleInstanceLock();

let win: BrowserWindow | null = null;
let doc: DocumentWindow | null = null;
let host: LocalHost | null = null;

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** `--allow-env A,B`: variables a job may name as its password besides WEIR_* (env-allowance.ts). */
function appAllowEnv() {
  const parsed = parseAllowEnv(argValue('--allow-env'));
  if ('bad' in parsed) console.error(`weir: --allow-env: '${parsed.bad}' is not an environment variable name; ignored`);
  return envAllowance('names' in parsed ? parsed.names : [], (n) => `start Weir with --allow-env ${n}`);
}

async function initialDocument(store: AppStore, workspace: string, h: LocalHost): Promise<string | null> {
  const file = process.argv.slice(1).find((a) => a.endsWith('.weir.json') && existsSync(a));
  if (file) {
    await h.files.grant(resolve(file));
    return resolve(file);
  }
  const example = argValue('--example');
  const recent = store.get('recentFiles').find((p) => existsSync(p));
  if (!example && recent) {
    await h.files.grant(recent);
    return recent;
  }
  try {
    return await materializeExample(EXAMPLES_DIR, example ?? 'live-sensors', workspace);
  } catch {
    return null;
  }
}

function sendCommand(command: AppCommand): void {
  host?.sendAppCommand(command);
}

function buildMenu(store: AppStore): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isMac: process.platform === 'darwin',
        command: sendCommand,
        recentFiles: () => store.get('recentFiles'),
        openRecent: (path) => {
          void host?.files.grant(path).then(() => host?.sendAppCommand('open', path));
        },
      }),
    ),
  );
}

async function createWindow(store: AppStore): Promise<void> {
  const bounds = store.get('windowBounds');
  win = new BrowserWindow({
    ...bounds,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Weir',
    backgroundColor: '#1e1e1e',
    webPreferences: secureWebPreferences(join(here, 'preload.cjs')),
  });
  if (bounds.maximized) win.maximize();
  doc = attachDocumentState(win, sendCommand);
  const saveBounds = () => {
    if (!win || win.isDestroyed()) return;
    store.set('windowBounds', clampBounds({ ...win.getNormalBounds(), maximized: win.isMaximized() }));
  };
  win.on('close', saveBounds);
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => {
    win = null;
    doc = null;
  });
  await win.loadURL(APP_URL);
}

function lockDown(): void {
  denyAllPermissions(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

async function start(): Promise<void> {
  const store = openStore();
  const workspace = store.get('settings').workspace || join(app.getPath('documents'), 'Weir');
  mkdirSync(workspace, { recursive: true });
  lockDown();
  serveRenderer(RENDERER_DIR);

  const remember = (path: string | null) => {
    if (!path) return;
    rememberRecent(store, path);
    app.addRecentDocument(path);
    buildMenu(store);
  };
  host = createLocalHost({
    workspace,
    examplesDir: EXAMPLES_DIR,
    launcher: createUtilityLauncher(join(here, 'task.cjs')),
    // Run starts on a task process that has loaded already (issue 27: Run to first record <= 500 ms).
    spareTaskProcess: true,
    transport: 'electron',
    version: app.getVersion(),
    allowEnv: appAllowEnv(),
    settings: hostSettingsOf(store),
    shell: {
      setDocumentState: (state) => doc?.update(state),
      showOpenDialog: async () => {
        const r = await dialog.showOpenDialog(win!, {
          title: 'Open job',
          defaultPath: workspace,
          // A .sql script opens in Import Flink SQL (renderer/src/documents/actions.ts).
          filters: [...JOB_FILTERS, { name: 'Flink SQL scripts', extensions: ['sql'] }],
          properties: ['openFile'],
        });
        const path = r.canceled ? null : (r.filePaths[0] ?? null);
        remember(path);
        return path;
      },
      showSaveDialog: async (suggested) => {
        const r = await dialog.showSaveDialog(win!, {
          title: 'Save job',
          defaultPath: suggested ?? join(workspace, 'untitled.weir.json'),
          filters: JOB_FILTERS,
        });
        let path = r.canceled ? null : (r.filePath ?? null);
        if (path && !path.endsWith('.json')) path = `${path}.weir.json`;
        remember(path);
        return path;
      },
      showFolderDialog: async () => {
        const r = await dialog.showOpenDialog(win!, {
          title: 'Allow a folder for this document',
          buttonLabel: 'Allow',
          defaultPath: workspace,
          properties: ['openDirectory', 'createDirectory'],
        });
        return r.canceled ? null : (r.filePaths[0] ?? null);
      },
      openFolder: async (folder) => {
        const failed = await shell.openPath(folder);
        if (failed) throw new Error(`${folder}: ${failed}`);
      },
    },
  });
  host.setInitialPath(await initialDocument(store, workspace, host));

  serveHostOverIpc(ipcMain, host, {
    isOurWebContents: (id) => win !== null && !win.isDestroyed() && win.webContents.id === id,
    target: () => (win && !win.isDestroyed() ? win.webContents : null),
  });
  buildMenu(store);
  await createWindow(store);
}

app.on('second-instance', () => {
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

app.on('window-all-closed', () => {
  const h = host;
  host = null;
  void (h ? h.dispose() : Promise.resolve()).finally(() => app.quit());
});

if (!primary) {
  app.quit();
} else {
  app
    .whenReady()
    .then(start)
    .catch((err: Error) => {
      dialog.showErrorBox('Weir could not start', err.message);
      app.exit(1);
    });
}
