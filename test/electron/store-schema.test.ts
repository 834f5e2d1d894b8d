import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { DEFAULTS, MAX_RECENT, STORE_SCHEMA, clampBounds, withRecent } from '../../electron/store-schema.ts';

// electron-store validates the whole file as { type: object, properties: schema } with ajv.
const validate = new Ajv({ allErrors: true, useDefaults: true }).compile({ type: 'object', properties: STORE_SCHEMA });

describe('desktop store schema', () => {
  it('accepts the defaults', () => {
    assert.equal(validate(structuredClone(DEFAULTS)), true, JSON.stringify(validate.errors));
  });

  it('refuses nonsense', () => {
    const bad = [
      { settings: { ...DEFAULTS.settings, defaultStateBackend: 'redis' } },
      { settings: { ...DEFAULTS.settings, extra: 1 } },
      { recentFiles: Array.from({ length: MAX_RECENT + 1 }, (_, i) => `/f${i}`) },
      { recentFiles: [42] },
      { windowBounds: { width: 10, height: 10, maximized: false } },
      { windowBounds: { width: 800, height: 600 } },
      { flink: { ...DEFAULTS.flink, target: 'moon' } },
      { flink: { ...DEFAULTS.flink, parallelism: 0 } },
      { flink: { ...DEFAULTS.flink, flinkVersion: '1.17' } },
    ];
    for (const b of bad) assert.equal(validate({ ...structuredClone(DEFAULTS), ...b }), false, JSON.stringify(b));
  });

  it('keeps recent files newest first, unique and bounded', () => {
    let list: string[] = [];
    for (let i = 0; i < 15; i++) list = withRecent(list, `/f${i}`);
    list = withRecent(list, '/f10');
    assert.equal(list.length, MAX_RECENT);
    assert.deepEqual(list.slice(0, 3), ['/f10', '/f14', '/f13']);
    assert.equal(new Set(list).size, list.length);
  });

  it('clamps window bounds into what the schema accepts', () => {
    const b = clampBounds({ x: 10.4, y: -3.6, width: 100, height: 1e9, maximized: true });
    assert.equal(validate({ ...structuredClone(DEFAULTS), windowBounds: b }), true, JSON.stringify(validate.errors));
  });
});
