/**
 * What the renderer imports from engine/host must run in a browser: following every import from
 * page-host.ts (and the preload's ipc-channels.ts) reaches no Node built-in, no `ws`, no Electron and no
 * engine runtime internals (type-only imports are erased and may name anything).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve, relative } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm;

function closure(entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      // Type-only imports vanish when compiled; they may name anything.
      if (/^\s*(import|export)\s+type\s/.test(m[0])) continue;
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(join(ROOT, entry));
  return { files: [...seen].map((f) => relative(ROOT, f)), packages: [...packages] };
}

describe('browser-safe host modules', () => {
  for (const entry of ['engine/host/browser/page-host.ts', 'engine/host/common/ipc-channels.ts']) {
    it(`${entry} reaches only browser-safe code`, () => {
      const { files, packages } = closure(entry);
      if (entry.endsWith('page-host.ts')) {
        for (const f of ['ws-client.ts', 'protocol.ts', 'rpc-client.ts', 'window-api.ts', 'errors.ts']) {
          assert.ok(
            files.some((x) => x.endsWith(`/${f}`)),
            `the walk reached ${f}: ${files.join(', ')}`,
          );
        }
      }
      assert.deepEqual(
        packages.filter((p) => p.startsWith('node:') || ['ws', 'electron', 'fs', 'path', 'child_process'].includes(p)),
        [],
        `${entry} imports ${packages.join(', ')}`,
      );
      assert.deepEqual(
        packages.filter((p) => p !== 'zod'),
        [],
        'only zod from npm',
      );
      const forbidden = files.filter(
        (f) =>
          /^engine\/(runtime|state|checkpoint|connectors|cli)\//.test(f) ||
          /^engine\/host\/node\//.test(f) ||
          /^engine\/host\/common\/memory-transport\.ts$/.test(f),
      );
      assert.deepEqual(forbidden, [], `${entry} reaches host-only code`);
    });
  }
});
