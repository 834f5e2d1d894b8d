// A node type is its definition plus one entry in each layer's table (docs/architecture.md, "How to
// add a node type"). The export table is typed over every type, so the compiler asks for it; the
// runtime's tables cannot be (a source has no operator, an operator no reader), so this test does:
// a type added to the registry without its runtime half fails here, not in a user's run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NODE_DEFINITIONS } from '../../../engine/graph/node-types.ts';
import { hasOperatorFactory } from '../../../engine/runtime/task/operators/registry.ts';
import { hasSourceConnector } from '../../../engine/connectors/sources.ts';
import { sinkRecoveryFor } from '../../../engine/connectors/sink-recovery.ts';
import { NODE_EXPORTERS } from '../../../engine/export/flink-sql/node-exporters.ts';

test('every type without inputs has a source reader and no operator; every other type an operator', () => {
  for (const def of NODE_DEFINITIONS) {
    const isSource = def.ports.maxInputs === 0;
    assert.equal(hasSourceConnector(def.type), isSource, `${def.type}: source reader`);
    assert.equal(hasOperatorFactory(def.type), !isSource, `${def.type}: operator factory`);
  }
});

test('every transactional sink has a recovery hook, which runs before each attempt', () => {
  for (const def of NODE_DEFINITIONS) {
    if (def.transactional) assert.ok(sinkRecoveryFor(def.type), `${def.type}: sink recovery`);
  }
});

test('every type has a Flink SQL exporter of the shape its ports call for', () => {
  for (const def of NODE_DEFINITIONS) {
    const exporter = NODE_EXPORTERS[def.type];
    assert.ok(exporter, `${def.type}: exporter`);
    const inputs = def.ports.maxInputs;
    if (inputs === 0) assert.equal(exporter.kind, 'source', def.type);
    else assert.notEqual(exporter.kind, 'source', def.type);
  }
});

test("a type's name is written in at most three product files (its definition, in practice)", async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const files: string[] = [];
  for (const root of ['engine', 'renderer/src', 'electron']) {
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(ts|tsx)$/.test(entry.name)) files.push(join(entry.parentPath, entry.name));
    }
  }
  const texts = await Promise.all(files.map(async (f) => [f, await readFile(f, 'utf8')] as const));
  // Plain-word names (`union`, `window`, `map`) are also SQL and zod vocabulary; the dotted ones
  // (`source.file`, `join.window`, `sink.postgres`) are the job format's alone.
  for (const def of NODE_DEFINITIONS.filter((d) => d.type.includes('.'))) {
    // As a string literal (comments and messages that mention it in backticks or prose do not count).
    const quoted = [`'${def.type}'`, `"${def.type}"`];
    const holders = texts.filter(([, t]) => quoted.some((q) => t.includes(q))).map(([f]) => f);
    assert.ok(holders.length >= 1 && holders.length <= 3, `${def.type} is written in ${holders.join(', ')}`);
  }
});
