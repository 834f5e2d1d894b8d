/**
 * The bundled main process (dist/electron/main.cjs) started under a recording stand-in for the
 * 'electron' module (fixtures/electron-stub.cjs; the Electron binary cannot be installed here).
 * What is real: our whole main bundle, the host, the IPC guard, the app:// file server reading
 * dist/renderer. What it proves: the window is locked down, the page is served with the CSP,
 * foreign senders are refused, menus reach the renderer as app.command events, the title shows
 * the dirty state and closing unsaved work is held for a prompt.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureRenderer } from '../e2e/support/serve.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('electron main process (under a recording electron stand-in)', () => {
  let home: string;
  let report: any;

  before(() => {
    ensureRenderer();
    const b = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--electron'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(b.status, 0, b.stderr);
    home = mkdtempSync(join(tmpdir(), 'weir-main-'));
    const r = spawnSync(
      process.execPath,
      [
        '-r',
        join(import.meta.dirname, 'fixtures', 'electron-stub.cjs'),
        join(ROOT, 'dist', 'electron', 'main.cjs'),
        '--example',
        'orders-per-user',
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, WEIR_STUB_HOME: home }, timeout: 60_000 },
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    report = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('opens one locked-down window on app://weir with the bundled example', () => {
    assert.equal(report.errorBox, null);
    assert.equal(report.rec.windows.length, 1);
    const prefs = report.rec.windows[0].webPreferences;
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.match(prefs.preload, /dist\/electron\/preload\.cjs$/);
    assert.deepEqual(report.rec.loadedUrls, ['app://weir/index.html']);
    assert.equal(report.info.ok, true);
    assert.equal(report.info.result.transport, 'electron');
    assert.equal(report.info.result.initialPath, join(home, 'documents', 'Weir', 'orders-per-user', 'job.weir.json'));
    assert.ok(existsSync(report.info.result.initialPath), 'the example was copied into the workspace');
  });

  it('serves the renderer with a strict CSP and nothing outside it', () => {
    assert.equal(report.page.status, 200);
    assert.match(report.page.csp, /default-src 'self'; script-src 'self'/);
    assert.match(report.page.csp, /object-src 'none'/);
    assert.equal(report.escape, 404);
    assert.equal(report.otherHost, 404);
  });

  it('refuses foreign senders, navigation, new windows and permissions', () => {
    assert.equal(report.foreign.ok, false);
    assert.equal(report.foreign.error.code, 'invalid_request');
    assert.equal(report.navigationPrevented, true);
    assert.deepEqual(report.windowOpen, { action: 'deny' });
    assert.equal(report.permission, false);
    assert.equal(report.permissionCheck, false, 'the main bundle installs a permission check handler answering false');
  });

  it('has the menus and sends their commands to the renderer', () => {
    const labels = Object.fromEntries(report.menuLabels);
    for (const item of ['New', 'Open…', 'Save', 'Save As…', 'Export…']) assert.ok(labels['&File'].includes(item), item);
    for (const item of ['Undo', 'Redo']) assert.ok(labels['&Edit'].includes(item), item);
    assert.deepEqual(labels['&Run'], ['Run', 'Stop']);
    assert.deepEqual(report.sentAfterSave, [['weir:host-events', [{ type: 'app.command', command: 'save' }]]]);
  });

  it('shows unsaved state in the title and prompts before closing it', () => {
    assert.deepEqual(report.titles, ['• orders - Weir', 'orders - Weir']);
    assert.deepEqual(report.messageBox, ['Save', "Don't Save", 'Cancel']);
    assert.equal(report.closedWhileDirty, false, 'Cancel keeps the window');
    assert.equal(report.closedWhenClean, true);
  });
});
