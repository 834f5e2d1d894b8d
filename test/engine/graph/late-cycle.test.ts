// A `late` edge back into its own node used to send the column typer into endless recursion (a
// `late` port carries the node's own input): validation threw "Maximum call stack size exceeded"
// instead of reporting the edge. Found by validation-cache.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateJob } from '../../../engine/graph/validate.ts';
import { edgeSchemas } from '../../../engine/graph/edge-schemas.ts';
import { createValidationCache } from '../../../engine/graph/validation-cache.ts';
import type { JobDocument } from '../../../engine/graph/types.ts';

const ROOT = join(import.meta.dirname, '../../..');

test('a late edge into its own node is reported, not a crash, with or without a cache', () => {
  const job = JSON.parse(readFileSync(join(ROOT, 'examples', 'live-sensors', 'job.weir.json'), 'utf8')) as JobDocument;
  const looped: JobDocument = {
    ...job,
    edges: [...job.edges, { from: 'celsius', fromPort: 'late', to: 'celsius' }],
  };
  for (const cache of [undefined, createValidationCache()]) {
    const r = validateJob(looped, { cache });
    assert.equal(r.ok, false);
    assert.ok(
      r.problems.some((p) => p.path === 'edges[4].fromPort'),
      JSON.stringify(r.problems),
    );
    assert.doesNotThrow(() => edgeSchemas(looped, { cache }));
  }
});
