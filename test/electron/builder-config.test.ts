/**
 * electron-builder.yml against electron-builder's own configuration schema (app-builder-lib's
 * scheme.json, the one it validates with), plus what the issue asks of the packaging.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';

const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
// js-yaml and app-builder-lib come with electron-builder (a dev dependency).
const yaml = require('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;

describe('electron-builder.yml', () => {
  it("passes electron-builder's configuration schema", () => {
    const scheme = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(scheme);
    assert.equal(validate(config), true, JSON.stringify(validate.errors));
  });

  it('names the app and builds every asked-for target', () => {
    assert.equal(config.appId, 'dev.weir.app');
    assert.equal(config.productName, 'Weir');
    assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
    assert.deepEqual(config.mac.target, ['dmg']);
    assert.deepEqual(config.win.target, ['nsis']);
  });

  it("unpacks rocksdb's native module from the asar and ships the bundles and examples", () => {
    assert.equal(config.asar, true);
    assert.ok(
      config.asarUnpack.some((p: string) => p.includes('node_modules/rocksdb')),
      JSON.stringify(config.asarUnpack),
    );
    assert.ok(config.files.includes('dist/**/*'));
    assert.ok(
      config.extraResources.some((r: { from: string; to: string }) => r.from === 'examples' && r.to === 'examples'),
    );
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(
      pkg.main,
      'dist/electron/main.cjs',
      'the entry electron-builder packs is what scripts/build.mjs writes',
    );
  });

  it('sets the Electron fuses of the security checklist', () => {
    const f = config.electronFuses;
    assert.ok(f, 'electronFuses is set');
    assert.equal(f.runAsNode, false);
    assert.equal(f.enableNodeOptionsEnvironmentVariable, false);
    assert.equal(f.enableNodeCliInspectArguments, false);
    assert.equal(f.enableCookieEncryption, true);
    assert.equal(f.enableEmbeddedAsarIntegrityValidation, true);
    assert.equal(f.onlyLoadAppFromAsar, true);
  });
});
