import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateJob } from '../../../renderer/src/model/validator.ts';
import { validateJob as engineValidate } from '../../../engine/graph/validate.ts';
import { largeJob } from '../../support/fixtures/large-job.ts';

const examples = JSON.parse(readFileSync(new URL('../../../examples/index.json', import.meta.url), 'utf8')) as Array<{
  path: string;
}>;

test('the designer reports exactly what the engine validator reports (memoized expressions)', () => {
  const broken = largeJob(2);
  (broken.nodes[2].config as { where: string }).where = 'seq >> 1';
  (broken.nodes[5].config as { select: string }).select = 'nope, key';
  const jobs = [
    largeJob(2),
    broken,
    ...examples.map((e) => JSON.parse(readFileSync(new URL(`../../../examples/${e.path}`, import.meta.url), 'utf8'))),
  ];
  for (const job of jobs) {
    // Twice: the second run is answered from the cache and must not differ.
    assert.deepEqual(validateJob(job), engineValidate(job).problems);
    assert.deepEqual(validateJob(job), engineValidate(job).problems);
  }
  assert.ok(validateJob(broken).some((p) => p.path === 'nodes[2].config.where'));
});
