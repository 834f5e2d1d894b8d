/**
 * package.json's `engines.node` is what the installed dependencies need (issue 26: `npm install`
 * warned EBADENGINE while engines said >=20.6). Every package in package-lock.json that declares
 * engines.node must accept the lowest Node of each of our ranges, except the ones named below with
 * the reason they do not matter for installing, starting, building and testing Weir.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Packages whose engines may exclude a Node we accept, and why. */
const EXCEPTIONS: Record<string, string> = {
  '@electron/rebuild':
    "electron-builder's native-module rebuild (packaging installers, not npm start/test): needs Node >= 22.12",
  'node-abi':
    "electron-builder's @electron/rebuild (packaging installers, not npm start/test); it asks for Node >= 22.12, so packaging needs Node 22",
};

type V = [number, number, number];

function parse(v: string): { v: V; wild: number } {
  const parts = v.replace(/^v/, '').split('.');
  const nums: number[] = [];
  for (const p of parts) {
    if (p === '*' || p === 'x' || p === 'X' || p === '') break;
    nums.push(Number(p));
  }
  return { v: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], wild: nums.length };
}

const cmp = (a: V, b: V) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** npm's range grammar, as far as engines fields use it: ||, spaces (and), >= > <= < =, ^, x-ranges. */
export function satisfies(version: string, range: string): boolean {
  const have = parse(version).v;
  return range.split('||').some((alt) => {
    const comparators = alt
      .trim()
      .replace(/(>=|<=|>|<|=|\^)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (comparators.length === 0) return true;
    return comparators.every((c) => {
      const m = /^(>=|<=|>|<|=|\^)?(.*)$/.exec(c)!;
      const op = m[1] ?? '';
      if (m[2] === '*' || m[2] === '') return true;
      const { v, wild } = parse(m[2]);
      assert.ok(!Number.isNaN(v[0]), `cannot read the range '${range}'`);
      const d = cmp(have, v);
      if (op === '>=') return d >= 0;
      if (op === '>') return d > 0;
      if (op === '<=') return d <= 0;
      if (op === '<') return d < 0;
      if (op === '^') return d >= 0 && have[0] === v[0];
      // Bare or `=`: an x-range when parts are missing (20, 20.x, 6.*), else exact.
      if (wild === 1) return have[0] === v[0];
      if (wild === 2) return have[0] === v[0] && have[1] === v[1];
      return d === 0;
    });
  });
}

test('the range reader reads what the lockfile uses', () => {
  assert.ok(satisfies('20.19.0', '^20.19.0 || >=22.12.0'));
  assert.ok(!satisfies('20.6.0', '^20.19.0 || >=22.12.0'));
  assert.ok(satisfies('22.12.0', '18 || 20 || >=22'));
  assert.ok(satisfies('20.19.0', '>=16 || 14 >=14.17'));
  assert.ok(satisfies('20.19.0', '6.* || 8.* || >= 10.*'));
  assert.ok(!satisfies('20.19.0', '>=22.12.0'));
});

test("engines.node admits only Nodes every dependency's engines accept", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } | string[] }>;
  };
  // The lowest Node of each alternative of our own range.
  const lowest = pkg.engines.node.split('||').map((alt) => parse(alt.trim().replace(/^[\^>=~]+/, '')).v.join('.'));
  assert.ok(satisfies(process.versions.node, pkg.engines.node), `this Node ${process.versions.node} is in engines`);
  const refused: string[] = [];
  for (const [where, p] of Object.entries(lock.packages)) {
    const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!range || !where || name in EXCEPTIONS) continue;
    for (const v of lowest) if (!satisfies(v, range)) refused.push(`${name} needs ${range}, refuses ${v}`);
  }
  assert.deepEqual(refused, []);
});
