// source.nexmark in validation: its ports carry Flink's Nexmark columns, its config is range-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';

const job = (config: Record<string, unknown>, where = 'price > 10', fromPort = 'bid') => ({
  format: 'weir.job/v1',
  name: 'nx',
  nodes: [
    { id: 'nx', type: 'source.nexmark', config },
    { id: 'f', type: 'filter', config: { where } },
    { id: 'out', type: 'sink.preview', config: {} },
  ],
  edges: [
    { from: 'nx', fromPort, to: 'f' },
    { from: 'f', to: 'out' },
  ],
});

const messages = (doc: unknown) => {
  const r = validateJob(doc, { baseDir: '/tmp' });
  return r.problems.map((p) => `${p.path}: ${p.message}`);
};

test('a Nexmark port carries its own columns: bid has price, person has none', () => {
  assert.deepEqual(messages(job({ events: 100 })), []);
  const wrong = messages(job({ events: 100 }, 'price > 10', 'person'));
  assert.ok(
    wrong.some((m) => /nodes\[1\]\.config\.where: unknown column 'price' \(columns: id, name, emailAddress/.test(m)),
    JSON.stringify(wrong),
  );
});

test('events, seed and baseTime are checked, naming the field', () => {
  assert.ok(messages(job({ events: 0 })).some((m) => m.startsWith('nodes[0].config.events:')));
  assert.ok(messages(job({ events: 10, seed: -1 })).some((m) => m.startsWith('nodes[0].config.seed:')));
  assert.ok(
    messages(job({ events: 10, baseTime: 9e15 })).some((m) => /nodes\[0\]\.config\.baseTime: .*outside/.test(m)),
  );
  assert.ok(
    messages(job({ events: 9e15, rate: 1 })).some((m) => /nodes\[0\]\.config\.events: the last event's time/.test(m)),
  );
  assert.ok(messages(job({ events: 10, colour: 'red' })).length > 0, 'unknown fields are refused');
});
