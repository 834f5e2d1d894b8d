/**
 * connectors/sink-manifest.ts on real files: entries round-trip with their hashes, a torn last line
 * (a crash mid-append) is ignored and the next append starts on its own line, any damaged complete
 * line makes the manifest untrusted, naming file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendSinkManifest,
  MANIFEST_FILE,
  parseFinalName,
  readSinkManifest,
  rewriteSinkManifest,
  SinkManifestError,
} from '../../../engine/connectors/sink-manifest.ts';
import { tempDir } from '../../support/run-helpers.ts';

test('entries round-trip; a torn last line is ignored; a damaged line is refused by line number', () => {
  const { dir, cleanup } = tempDir('manifest');
  try {
    assert.equal(readSinkManifest(dir), null);
    appendSinkManifest(dir, 'j', [{ kind: 'run', lineage: 'ab12' }]);
    appendSinkManifest(dir, 'j', [
      { kind: 'commit', lineage: 'ab12', checkpoint: 3, files: ['part-ab12-0-000003.jsonl'] },
    ]);
    let m = readSinkManifest(dir)!;
    assert.equal(m.job, 'j');
    assert.deepEqual([...m.lineages], ['ab12']);
    assert.deepEqual(m.files.get('part-ab12-0-000003.jsonl'), { lineage: 'ab12', checkpoint: 3 });
    appendFileSync(join(dir, MANIFEST_FILE), '{"e":{"kind":"commit","lineage":"ab12","checkpoint":4,"fi');
    m = readSinkManifest(dir)!;
    assert.equal(m.files.size, 1, 'the torn append is ignored');
    appendSinkManifest(dir, 'j', [
      { kind: 'commit', lineage: 'ab12', checkpoint: 5, files: ['part-ab12-0-000005.jsonl'] },
    ]);
    m = readSinkManifest(dir)!;
    assert.deepEqual(
      [...m.files.keys()],
      ['part-ab12-0-000003.jsonl', 'part-ab12-0-000005.jsonl'],
      'the torn line was cut off, not completed',
    );
    const lines = readFileSync(join(dir, MANIFEST_FILE), 'utf8').split('\n');
    writeFileSync(
      join(dir, MANIFEST_FILE),
      [...lines.slice(0, 2), lines[2].replace('"checkpoint":3', '"checkpoint":2'), ...lines.slice(3)].join('\n'),
    );
    assert.throws(
      () => readSinkManifest(dir),
      (e: unknown) => e instanceof SinkManifestError && /line 3 is damaged \(checksum mismatch\)/.test(e.message),
    );
    rewriteSinkManifest(dir, [{ kind: 'header', format: 'weir.sink-manifest/v1', job: 'j' }]);
    const text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
    writeFileSync(join(dir, MANIFEST_FILE), text.replace('"job":"j"', '"job":"k"'));
    assert.throws(() => readSinkManifest(dir), /line 1 is damaged \(checksum mismatch\)/);
  } finally {
    cleanup();
  }
});

test('committed file names parse back to lineage, subtask and checkpoint', () => {
  assert.deepEqual(parseFinalName('part-ab12cd34-3-000017.jsonl'), { lineage: 'ab12cd34', subtask: 3, checkpoint: 17 });
  assert.deepEqual(parseFinalName('part-ab12cd34-0-end.csv'), { lineage: 'ab12cd34', subtask: 0, checkpoint: 'end' });
  assert.equal(parseFinalName('report.pdf'), null);
  assert.equal(parseFinalName('part-x-1-000001.txt'), null);
});
