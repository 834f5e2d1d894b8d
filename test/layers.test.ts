// The layering rule (scripts/check-layers.mjs) holds for the repository and catches each kind of
// violation in a scratch tree.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPT = join(ROOT, 'scripts', 'check-layers.mjs');

function run(root?: string) {
  const r = spawnSync(process.execPath, [SCRIPT, ...(root ? ['--root', root] : [])], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * Runs the check on a scratch tree of `files` (repo-relative path -> text), expecting exit 1: its
 * output, its error lines and `has(re)`, which asserts that one of them matches.
 */
function runOnScratchTree(t: TestContext, files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'weir-layers-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const r = run(root);
  assert.equal(r.code, 1, r.out + r.err);
  const lines = r.err.trim().split('\n');
  const has = (re: RegExp) =>
    assert.ok(
      lines.some((l) => re.test(l)),
      `${re}\n${r.err}`,
    );
  return { r, lines, has };
}

test('the repository respects the layers', () => {
  const r = run();
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^layers: ok \(\d+ files\)/);
});

test('each kind of violation is reported as file:line: reason, exit 1', (t) => {
  const files: Record<string, string> = {
    'engine/runtime/ui.ts': "import { app } from 'electron';\nimport React from 'react';\n",
    'engine/runtime/flow.ts':
      "// import { x } from '@xyflow/react';\n\nexport { ReactFlow } from '@xyflow/react';\nimport('react-dom/client');\n",
    'engine/runtime/task.ts': "import { readFile } from 'node:fs/promises';\nexport const x = 1;\n",
    'engine/graph/ok.ts':
      "import type { Stats } from 'node:fs';\nimport { z } from 'zod';\nexport type S = Stats;\nexport const y = z;\n",
    'engine/graph/bad.ts':
      "import { join } from 'node:path';\nimport { x } from '../runtime/task.ts';\nexport const j = [join, x];\n",
    'engine/graph/schema-inference.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
    'engine/graph/uses-inference.ts': "import { r } from './schema-inference.ts';\nexport const q = r;\n",
    'engine/export/flink-sql/index.ts': "import { writeFileSync } from 'fs';\nexport const w = writeFileSync;\n",
    'engine/sql/index.ts': "import { Buffer } from 'buffer';\nexport const b = Buffer;\n",
    'engine/host/common/api.ts': "import { helper } from './helper.ts';\nexport const h = helper;\n",
    'engine/host/common/helper.ts': "import { createServer } from 'node:net';\nexport const helper = createServer;\n",
    'renderer/src/App.tsx': [
      "import { useState } from 'react';",
      "import { readFileSync } from 'fs';",
      "import * as path from 'node:path';",
      "import { spawn } from 'child_process';",
      "import rocks from 'rocksdb';",
      "import { startJob } from '../../engine/runtime/task.ts';",
      "import { infer } from '../../engine/graph/schema-inference.ts';",
      "import { exportFlinkSql } from '../../engine/export/flink-sql/index.ts';",
      "import type { JobDocument } from '../../engine/graph/types.ts';",
      "import { validateJob } from '../../engine/graph/ok.ts';",
      "import { connect } from '../../engine/host/browser/ws-client.ts';",
      'const s = \'import x from "fs"\'; // a string, not an import',
      '',
    ].join('\n'),
  };
  const { r, lines, has } = runOnScratchTree(t, files);
  has(/^engine\/runtime\/ui\.ts:1: engine must not import 'electron'/);
  has(/^engine\/runtime\/ui\.ts:2: engine must not import 'react'/);
  has(/^engine\/runtime\/flow\.ts:3: engine must not import '@xyflow\/react'/);
  has(/^engine\/runtime\/flow\.ts:4: engine must not import 'react-dom\/client'/);
  has(/^engine\/graph\/bad\.ts:1: browser-safe module must not import the Node built-in 'node:path'/);
  has(
    /^engine\/runtime\/task\.ts:1: browser-safe module must not import the Node built-in 'node:fs\/promises' \(browser-safe because engine\/graph\/bad\.ts imports it\)/,
  );
  has(
    /^engine\/graph\/uses-inference\.ts:1: browser-safe module must not import the Node-only module 'engine\/graph\/schema-inference\.ts'/,
  );
  has(/^engine\/sql\/index\.ts:1: browser-safe module must not import the Node built-in 'buffer'/);
  has(/^engine\/host\/common\/helper\.ts:1: browser-safe module must not import the Node built-in 'node:net'/);
  has(/^renderer\/src\/App\.tsx:2: renderer must not import the Node built-in 'fs'/);
  has(/^renderer\/src\/App\.tsx:3: renderer must not import the Node built-in 'node:path'/);
  has(/^renderer\/src\/App\.tsx:4: renderer must not import the Node built-in 'child_process'/);
  has(/^renderer\/src\/App\.tsx:5: renderer must not import the Node-only package 'rocksdb'/);
  has(/^renderer\/src\/App\.tsx:6: renderer must not import engine internals \('engine\/runtime\/task\.ts'\)/);
  has(
    /^renderer\/src\/App\.tsx:7: renderer must not import engine internals \('engine\/graph\/schema-inference\.ts'\)/,
  );
  has(
    /^renderer\/src\/App\.tsx:8: renderer must not import engine internals \('engine\/export\/flink-sql\/index\.ts'\)/,
  );
  // Allowed: type imports of Node built-ins, zod, schema-inference's own Node use, flink's Node
  // use, the shared modules, a string that only looks like an import, commented-out imports.
  for (const ok of [
    /ok\.ts/,
    /schema-inference\.ts:1/,
    /flink\/index\.ts:1/,
    /App\.tsx:(1|9|10|11|12):/,
    /flow\.ts:1:/,
  ]) {
    assert.ok(!lines.some((l) => ok.test(l)), `unexpected ${ok}\n${r.err}`);
  }
  // engine/runtime/task.ts sits in no ENGINE_LAYERS folder (only engine/runtime/{common,task,job}/ do).
  has(/^engine\/graph\/bad\.ts:2: 'engine\/runtime' has no place in ENGINE_LAYERS/);
  assert.match(lines[lines.length - 1], /^layers: 17 violations in 12 files$/);
});

test('arrows pointing up or sideways between folders, and folder cycles, are violations', (t) => {
  const files: Record<string, string> = {
    'engine/runtime/job/master.ts': 'export const m = 1;\n',
    'engine/graph/up.ts': "\nimport { m } from '../runtime/job/master.ts';\nexport const u = m;\n",
    'engine/checkpoint/store.ts': 'export const c = 1;\n',
    'engine/state/peer.ts': "import { c } from '../checkpoint/store.ts';\nexport const p = c;\n",
    'engine/cli/main.ts':
      "import { m } from '../runtime/job/master.ts';\nimport { p } from '../state/peer.ts';\nexport const ok = [m, p];\n",
    'bench/b.ts':
      "import { h } from '../test/support/h.ts';\nimport { s } from '../test/e2e/s.ts';\nexport const b = [h, s];\n",
    'test/support/h.ts': 'export const h = 1;\n',
    'test/e2e/s.ts': 'export const s = 1;\n',
    'test/x.test.ts': "import { b } from '../bench/b.ts';\nexport const x = b;\n",
    'electron/main.ts':
      "import { m } from '../engine/runtime/job/master.ts';\nimport App from '../renderer/src/App.tsx';\nexport const e = [m, App];\n",
    'renderer/src/App.tsx': 'export default 1;\n',
    'test/a/one.ts': "import { two } from '../b/two.ts';\nexport const one = two;\n",
    'test/b/two.ts': "import { three } from '../c/three.ts';\nexport const two = three;\n",
    'test/c/three.ts': "import type { one } from '../a/one.ts';\nexport const three: typeof one | 0 = 0;\n",
  };
  const { r, lines, has } = runOnScratchTree(t, files);
  has(
    /^engine\/graph\/up\.ts:2: engine\/graph must not import engine\/runtime\/job \('engine\/runtime\/job\/master\.ts'\): a higher layer/,
  );
  has(/^engine\/state\/peer\.ts:1: engine\/state must not import engine\/checkpoint .*: same layer/);
  has(/^bench\/b\.ts:2: bench\/ must not import test\/ \('test\/e2e\/s\.ts'\)/);
  has(/^test\/x\.test\.ts:1: test\/ must not import bench\/ \('bench\/b\.ts'\)/);
  has(/^electron\/main\.ts:2: electron\/ must not import renderer\/ \('renderer\/src\/App\.tsx'\)/);
  // A cycle through three folders, closed by a type-only import, is reported at each of its arrows.
  has(/^test\/a\/one\.ts:1: folder cycle: test\/a -> test\/b \(cycle of test\/a, test\/b, test\/c\)/);
  has(/^test\/b\/two\.ts:1: folder cycle: test\/b -> test\/c/);
  has(/^test\/c\/three\.ts:1: folder cycle: test\/c -> test\/a/);
  // Allowed: downward arrows (cli -> runtime, state), bench -> test/support, electron -> the engine's runtime.
  for (const ok of [/^engine\/cli\//, /^bench\/b\.ts:1:/, /^electron\/main\.ts:1:/]) {
    assert.ok(!lines.some((l) => ok.test(l)), `unexpected ${ok}\n${r.err}`);
  }
  assert.match(lines[lines.length - 1], /^layers: 8 violations in 14 files$/);
});

test('import cycles between files in engine/, renderer/src and electron/ are violations', (t) => {
  const files: Record<string, string> = {
    // A cycle of three files in one folder, closed by a type-only import.
    'engine/sql/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
    'engine/sql/b.ts': "\nimport { c } from './c.ts';\nexport const b = c;\n",
    'engine/sql/c.ts': "import type { a } from './a.ts';\nexport const c: typeof a | 0 = 0;\n",
    // A lazy import() closes a cycle just the same.
    'engine/cli/main.ts': "import { serve } from './serve.ts';\nexport const version = () => serve;\n",
    'engine/cli/serve.ts': "export async function serve() {\n  return (await import('./main.ts')).version;\n}\n",
    'renderer/src/x.ts': "import { y } from './y.ts';\nexport const x = y;\n",
    'renderer/src/y.ts': "import { x } from './x.ts';\nexport const y = () => x;\n",
    'electron/p.ts': "import { q } from './q.ts';\nexport const p = q;\n",
    'electron/q.ts': "import { p } from './p.ts';\nexport const q = () => p;\n",
    // Outside those rooms file cycles are not checked; a file importing itself is no cycle.
    'test/support/u.ts': "import { v } from './v.ts';\nexport const u = v;\n",
    'test/support/v.ts': "import { u } from './u.ts';\nexport const v = () => u;\n",
    'engine/sql/self.ts': "export const s = 1;\nexport type S = typeof import('./self.ts');\n",
  };
  const { r, lines, has } = runOnScratchTree(t, files);
  const sql = '\\(cycle of engine/sql/a\\.ts, engine/sql/b\\.ts, engine/sql/c\\.ts\\)';
  has(new RegExp(`^engine/sql/a\\.ts:1: file cycle: engine/sql/a\\.ts -> engine/sql/b\\.ts ${sql}$`));
  has(new RegExp(`^engine/sql/b\\.ts:2: file cycle: engine/sql/b\\.ts -> engine/sql/c\\.ts ${sql}$`));
  has(new RegExp(`^engine/sql/c\\.ts:1: file cycle: engine/sql/c\\.ts -> engine/sql/a\\.ts ${sql}$`));
  has(/^engine\/cli\/serve\.ts:2: file cycle: engine\/cli\/serve\.ts -> engine\/cli\/main\.ts/);
  has(/^engine\/cli\/main\.ts:1: file cycle: engine\/cli\/main\.ts -> engine\/cli\/serve\.ts/);
  has(/^renderer\/src\/x\.ts:1: file cycle: renderer\/src\/x\.ts -> renderer\/src\/y\.ts/);
  has(/^electron\/p\.ts:1: file cycle: electron\/p\.ts -> electron\/q\.ts/);
  for (const ok of [/^test\//, /self\.ts/]) {
    assert.ok(!lines.some((l) => ok.test(l)), `unexpected ${ok}\n${r.err}`);
  }
  assert.match(lines[lines.length - 1], /^layers: 9 violations in 12 files$/);
});
