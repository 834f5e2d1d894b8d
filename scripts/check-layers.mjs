#!/usr/bin/env node
// The layering rule of STYLE.md, enforced (`npm run lint:layers`; test/layers.test.ts runs it):
//  1. engine/ never imports electron, react, react-dom or @xyflow/react.
//  2. renderer/ never imports Node built-ins, rocksdb, ws or electron, and takes from engine/ only
//     the shared, browser-safe modules listed in RENDERER_MAY_IMPORT.
//  3. Browser-safe engine modules (those entry points, everything they import, all of engine/nodes and engine/graph
//     except schema-inference.ts and all of engine/sql) import no Node
//     built-ins or Node-only packages, so the renderer bundle never pulls them in.
//  4. Every folder of the repository has a place in LAYERS and imports only folders below it
//     (ENGINE_LAYERS inside engine/, ROOMS between the top-level folders): no arrow points up or
//     sideways, test/ never imports bench/, electron/ never imports renderer/.
//  5. No import cycle between any two folders (at every depth, e.g. engine/runtime/task and
//     engine/runtime/task/operators).
//  6. No import cycle between files in engine/, renderer/src/ and electron/ (type-only imports
//     count: they tie the files' meanings together just the same). A cycle is broken by moving the
//     shared piece where it belongs (a types file, a registry the others register into), not by a
//     lazy import(), which this check reads as an import too.
// Prints `file:line: reason` per violation and exits 1 when there is any.
// Usage: node scripts/check-layers.mjs [--root DIR]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const UI_PACKAGES = ['electron', 'react', 'react-dom', '@xyflow/react'];
const NODE_ONLY_PACKAGES = ['rocksdb', 'ws', 'electron'];
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));

/** Engine files the renderer may import (globs: `dir/**` = everything below dir). */
export const RENDERER_MAY_IMPORT = [
  // Node type definitions: config, ports, defaults, palette entry, form fields (engine/nodes).
  'engine/nodes/**',
  'engine/graph/**',
  'engine/sql/**',
  // The host API and its browser-side transports (VS Code's common/ and browser/).
  'engine/host/common/**',
  'engine/host/browser/**',
  'engine/contracts/checkpoint.ts',
  'engine/contracts/keyed-state.ts',
  'engine/contracts/run-events.ts',
];
/** Exceptions inside the globs above: Node-only by design. */
export const NODE_ONLY_ENGINE = ['engine/graph/schema-inference.ts'];
/** Always browser-safe, whether or not the renderer imports them yet. */
const BROWSER_SAFE_ROOTS = ['engine/nodes/**', 'engine/graph/**', 'engine/sql/**'];

/**
 * engine/ bottom to top; a folder may import its own layer folder and any lower layer, nothing on
 * its level or above. docs/architecture.md draws the same stack.
 */
export const ENGINE_LAYERS = [
  ['engine/sql', 'engine/time'],
  // One definition per node type, read by the validator and everything above it.
  ['engine/nodes'],
  ['engine/graph'],
  ['engine/contracts'],
  ['engine/state', 'engine/checkpoint', 'engine/connectors'],
  ['engine/runtime/common'],
  ['engine/runtime/task', 'engine/runtime/job'],
  // A preview run drives the task's operators in one process, without checkpoints.
  ['engine/runtime/preview'],
  ['engine/export'],
  ['engine/import'],
  // Apache Flink itself: the runner JVM, the SQL Gateway client (the CLI's and the app's Run on Flink).
  ['engine/flink'],
  ['engine/host/common'],
  ['engine/host/browser', 'engine/host/node'],
  ['engine/cli'],
];

/** Top-level folders and what each may import besides itself (prefixes; engine/ is ENGINE_LAYERS). */
export const ROOMS = {
  engine: ['engine/'],
  // The renderer's engine imports are narrowed further by RENDERER_MAY_IMPORT.
  renderer: ['engine/'],
  // Glue: the host, plus the runtime's task launcher contract and the task entry it starts.
  electron: ['engine/host/', 'engine/runtime/job/', 'engine/runtime/task/', 'engine/contracts/', 'engine/graph/'],
  bench: ['engine/', 'test/support/'],
  test: ['engine/', 'renderer/', 'electron/', 'scripts/', 'schemas/', 'examples/', 'test/'],
  schemas: ['engine/graph/'],
  bin: ['engine/cli/'],
  scripts: [],
  examples: [],
};
const ROOTS = Object.keys(ROOMS);

/** Where file cycles are violations (rule 6). */
export const FILE_CYCLE_ROOTS = ['engine/', 'renderer/src/', 'electron/'];

const engineLayer = (file) => {
  let best = null;
  ENGINE_LAYERS.forEach((names, rank) => {
    for (const folder of names) {
      if (file.startsWith(`${folder}/`) && (!best || folder.length > best.folder.length)) best = { folder, rank };
    }
  });
  return best;
};

/** Why `from` may not import `to` (both repo-relative files), or null when it may. */
export function layerViolation(from, to) {
  const fromRoom = from.split('/')[0];
  const toRoom = to.split('/')[0];
  if (!(fromRoom in ROOMS)) return `'${fromRoom}/' has no place in the layers (scripts/check-layers.mjs ROOMS)`;
  if (!(toRoom in ROOMS)) return `'${toRoom}/' has no place in the layers (scripts/check-layers.mjs ROOMS)`;
  if (fromRoom !== toRoom && !ROOMS[fromRoom].some((p) => to.startsWith(p))) {
    return `${fromRoom}/ must not import ${toRoom}/ ('${to}'); it may import ${ROOMS[fromRoom].join(', ') || 'nothing else in the repo'}`;
  }
  if (fromRoom !== 'engine' || toRoom !== 'engine') return null;
  const a = engineLayer(from);
  const b = engineLayer(to);
  if (!a) return `'${dirname(from)}' has no place in ENGINE_LAYERS (scripts/check-layers.mjs)`;
  if (!b) return `'${dirname(to)}' has no place in ENGINE_LAYERS (scripts/check-layers.mjs)`;
  if (a.folder === b.folder || b.rank < a.rank) return null;
  return `${a.folder} must not import ${b.folder} ('${to}'): ${b.rank === a.rank ? 'same layer' : 'a higher layer'} (ENGINE_LAYERS)`;
}

/** Import cycles (between folders or files): strongly connected components of the graph (Tarjan). */
function cyclesOf(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const cycles = [];
  let i = 0;
  const visit = (v) => {
    index.set(v, i);
    low.set(v, i);
    i++;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) cycles.push(c.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const matches = (file, pattern) => (pattern.endsWith('/**') ? file.startsWith(pattern.slice(0, -2)) : file === pattern);
const matchesAny = (file, patterns) => patterns.some((p) => matches(file, p));
const rendererMayImport = (file) => matchesAny(file, RENDERER_MAY_IMPORT) && !matchesAny(file, NODE_ONLY_ENGINE);

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    // Build configs (vite.config.ts, ...) run in Node at build time, not in the page.
    if (/\.config\.[cm]?[jt]s$/.test(name)) return [];
    return /\.(m?[jt]sx?|cts|cjs)$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * Blanks out comments (keeping newlines) so that commented-out imports are not read, and records
 * where string literals start so that text inside a string is not taken for an import.
 */
function stripComments(src) {
  let out = '';
  let i = 0;
  let quote = null;
  const strings = [];
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (quote) {
      out += c;
      if (c === '\\') {
        out += n ?? '';
        i += 2;
        continue;
      }
      if (c === quote) {
        quote = null;
        strings[strings.length - 1][1] = i;
      }
      i++;
    } else if (c === '/' && n === '/') {
      while (i < src.length && src[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else {
      if (c === "'" || c === '"' || c === '`') {
        quote = c;
        strings.push([i, src.length]);
      }
      out += c;
      i++;
    }
  }
  return { text: out, strings };
}

const IMPORT_PATTERNS = [
  // import x from 'y' / import { a } from 'y' / export * from 'y' (possibly over several lines)
  /\b(import|export)\s+(type\s+)?[\w*{}\s,$]*?\bfrom\s*(['"])([^'"]+)\3/g,
  // import 'y'
  /\bimport\s*(['"])([^'"]+)\1/g,
  // import('y') and require('y')
  /\b(?:import|require)\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
];

export function importsOf(src) {
  const { text, strings } = stripComments(src);
  const found = [];
  const lineAt = (index) => text.slice(0, index).split('\n').length;
  const inString = (index) => strings.some(([a, b]) => index > a && index < b);
  for (const [k, re] of IMPORT_PATTERNS.entries()) {
    for (const m of text.matchAll(re)) {
      if (inString(m.index)) continue;
      const spec = k === 0 ? m[4] : m[2];
      const typeOnly = k === 0 && Boolean(m[2]);
      found.push({ spec, line: lineAt(m.index), typeOnly });
    }
  }
  return found;
}

const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const isBuiltin = (spec) => spec.startsWith('node:') || BUILTINS.has(packageOf(spec));

export function checkLayers(root) {
  const rel = (p) => relative(root, p).split(sep).join('/');
  const files = ROOTS.flatMap((room) => walk(join(root, room)));
  const imports = new Map(files.map((f) => [rel(f), importsOf(readFileSync(f, 'utf8'))]));
  const violations = [];
  const add = (file, line, reason) => violations.push({ file, line, reason });

  const resolveLocal = (from, spec) => {
    if (!spec.startsWith('.')) return null;
    const base = resolve(root, dirname(from), spec);
    for (const cand of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
      if (existsSync(cand) && statSync(cand).isFile()) return rel(cand);
    }
    return rel(base);
  };

  // Folder graph: folder -> folder -> the first import (file, line) that draws the arrow.
  const folderEdges = new Map();
  for (const [file, list] of imports) {
    for (const { spec, line } of list) {
      const target = resolveLocal(file, spec);
      if (!target || target.startsWith('..')) continue;
      const why = layerViolation(file, target);
      if (why) add(file, line, why);
      const a = dirname(file);
      const b = dirname(target);
      if (a === b) continue;
      if (!folderEdges.has(a)) folderEdges.set(a, new Map());
      if (!folderEdges.get(a).has(b)) folderEdges.get(a).set(b, { file, line });
    }
  }
  // No folder cycle is tolerated: every folder sits above or below every other it touches.
  for (const cycle of cyclesOf(folderEdges)) {
    const members = new Set(cycle);
    for (const a of cycle) {
      for (const [b, at] of folderEdges.get(a) ?? []) {
        if (members.has(b)) add(at.file, at.line, `folder cycle: ${a} -> ${b} (cycle of ${cycle.join(', ')})`);
      }
    }
  }

  // File graph inside FILE_CYCLE_ROOTS: file -> file -> the first import line that draws the arrow.
  const inFileCycleRoots = (f) => FILE_CYCLE_ROOTS.some((r) => f.startsWith(r));
  const fileEdges = new Map();
  for (const [file, list] of imports) {
    if (!inFileCycleRoots(file)) continue;
    const out = new Map();
    for (const { spec, line } of list) {
      const target = resolveLocal(file, spec);
      if (target && target !== file && imports.has(target) && inFileCycleRoots(target) && !out.has(target)) {
        out.set(target, { file, line });
      }
    }
    fileEdges.set(file, out);
  }
  for (const cycle of cyclesOf(fileEdges)) {
    const members = new Set(cycle);
    for (const a of cycle) {
      for (const [b, at] of fileEdges.get(a)) {
        if (members.has(b)) add(at.file, at.line, `file cycle: ${a} -> ${b} (cycle of ${cycle.join(', ')})`);
      }
    }
  }

  for (const [file, list] of imports) {
    for (const { spec, line } of list) {
      if (file.startsWith('engine/') && UI_PACKAGES.includes(packageOf(spec))) {
        add(file, line, `engine must not import '${spec}' (UI code belongs in renderer/ or electron/)`);
      }
      if (!file.startsWith('renderer/')) continue;
      if (isBuiltin(spec)) add(file, line, `renderer must not import the Node built-in '${spec}'`);
      else if (NODE_ONLY_PACKAGES.includes(packageOf(spec)))
        add(file, line, `renderer must not import the Node-only package '${spec}'`);
      const target = resolveLocal(file, spec);
      if (target && target.startsWith('engine/') && !rendererMayImport(target)) {
        add(
          file,
          line,
          `renderer must not import engine internals ('${target}'); only shared modules: ${RENDERER_MAY_IMPORT.join(', ')} (not ${NODE_ONLY_ENGINE.join(', ')})`,
        );
      }
    }
  }

  // Browser-safe closure: roots plus everything they import at run time (type imports are erased).
  const roots = [...imports.keys()].filter(
    (f) =>
      f.startsWith('engine/') &&
      (matchesAny(f, BROWSER_SAFE_ROOTS) || rendererMayImport(f)) &&
      !matchesAny(f, NODE_ONLY_ENGINE),
  );
  const reachedFrom = new Map(roots.map((f) => [f, null]));
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const { spec, line, typeOnly } of imports.get(file) ?? []) {
      if (typeOnly) continue;
      const chain = reachedFrom.get(file) ? ` (browser-safe because ${reachedFrom.get(file)} imports it)` : '';
      if (isBuiltin(spec)) add(file, line, `browser-safe module must not import the Node built-in '${spec}'${chain}`);
      else if (NODE_ONLY_PACKAGES.includes(packageOf(spec)))
        add(file, line, `browser-safe module must not import the Node-only package '${spec}'${chain}`);
      const target = resolveLocal(file, spec);
      if (target && imports.has(target) && !reachedFrom.has(target)) {
        if (matchesAny(target, NODE_ONLY_ENGINE)) {
          add(file, line, `browser-safe module must not import the Node-only module '${target}'${chain}`);
          continue;
        }
        reachedFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  violations.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { violations, filesChecked: files.length };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const i = process.argv.indexOf('--root');
  const root = resolve(i >= 0 ? process.argv[i + 1] : join(dirname(fileURLToPath(import.meta.url)), '..'));
  const { violations, filesChecked } = checkLayers(root);
  for (const v of violations) console.error(`${v.file}:${v.line}: ${v.reason}`);
  if (violations.length > 0) {
    console.error(
      `layers: ${violations.length} violation${violations.length === 1 ? '' : 's'} in ${filesChecked} files`,
    );
    process.exit(1);
  }
  console.log(`layers: ok (${filesChecked} files)`);
}
