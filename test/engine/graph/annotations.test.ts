/**
 * Groups and sticky notes (designer annotations) are part of weir.job/v1 but never of what runs:
 * the schema (and the generated JSON Schema) accept them strictly, validation passes, and the
 * normalized job the engine plans from has no trace of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validateJob } from '../../../engine/graph/validate.ts';
import { jobJsonSchema } from '../../../engine/graph/schema.ts';
import { baseJob } from './job-builders.ts';

function annotated(): Record<string, unknown> {
  const doc = baseJob() as unknown as Record<string, unknown> & { nodes: Array<{ id: string }> };
  return {
    ...doc,
    groups: [{ id: 'g1', label: 'Cleaning', nodes: [doc.nodes[0].id, doc.nodes[1].id] }],
    notes: [{ id: 'n1', text: 'Amounts are in cents', position: { x: 10, y: -80 }, width: 200, height: 90 }],
  };
}

test('a job with groups and notes is valid and runs as if they were not there', () => {
  const r = validateJob(annotated());
  assert.equal(r.ok, true, JSON.stringify(r.problems));
  const plain = validateJob(baseJob());
  assert.ok(r.ok && plain.ok);
  assert.deepEqual(r.job, plain.job, 'the normalized job carries no annotation');
  assert.ok(!('groups' in r.job) && !('notes' in r.job));
});

test('annotations are strict like the rest of the format', () => {
  const doc = annotated() as { notes: Array<Record<string, unknown>> };
  doc.notes[0].colour = 'yellow';
  const r = validateJob(doc);
  assert.equal(r.ok, false);
  assert.match(r.problems.map((p) => `${p.path}: ${p.message}`).join('\n'), /notes\[0\]/);
});

test('the generated JSON Schema accepts the same annotated document', () => {
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile(jobJsonSchema());
  assert.equal(validate(annotated()), true, JSON.stringify(validate.errors));
});
