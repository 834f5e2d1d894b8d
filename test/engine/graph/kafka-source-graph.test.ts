/**
 * `source.kafka`'s top-level `idleTimeout` (the issue's config shape) is `eventTime.idleTimeout`
 * under another name: normalizing moves it there, so the runtime's watermark settings and the export
 * read it; giving both, or giving it without event time, is refused naming the field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateJob } from '../../../engine/graph/validate.ts';
import { sourceWatermarkSettings } from '../../../engine/connectors/sources.ts';

function kafkaJob(config: Record<string, unknown>) {
  return {
    format: 'weir.job/v1',
    name: 'kafka-idle',
    nodes: [
      {
        id: 'src',
        type: 'source.kafka',
        config: { bootstrap: '127.0.0.1:9092', topic: 'orders', format: 'jsonl', ...config },
      },
      { id: 'out', type: 'sink.preview', config: {} },
    ],
    edges: [{ from: 'src', to: 'out' }],
  };
}

test('a top-level idleTimeout is eventTime.idleTimeout', () => {
  const r = validateJob(kafkaJob({ eventTime: { field: 'ts', maxOutOfOrderness: '2s' }, idleTimeout: '30s' }));
  assert.ok(r.ok, JSON.stringify(r.problems));
  const src = r.job.nodes.find((n) => n.id === 'src')!;
  assert.deepEqual(src.config, {
    bootstrap: '127.0.0.1:9092',
    topic: 'orders',
    format: 'jsonl',
    eventTime: { field: 'ts', maxOutOfOrderness: 2000, idleTimeout: 30000 },
  });
  assert.deepEqual(sourceWatermarkSettings(src), { maxOutOfOrderness: 2000, idleTimeout: 30000 });
  const nested = validateJob(kafkaJob({ eventTime: { field: 'ts', maxOutOfOrderness: '2s', idleTimeout: '30s' } }));
  assert.ok(nested.ok);
  assert.deepEqual(nested.job.nodes.find((n) => n.id === 'src')!.config, src.config, 'the same job as the nested form');
});

test('idleTimeout given twice, or without eventTime, is refused naming the field', () => {
  const twice = validateJob(kafkaJob({ eventTime: { field: 'ts', idleTimeout: '10s' }, idleTimeout: '30s' }));
  assert.equal(twice.ok, false);
  assert.ok(
    twice.problems.some((p) => p.path === 'nodes[0].config.idleTimeout' && /given twice/.test(p.message)),
    JSON.stringify(twice.problems),
  );
  const alone = validateJob(kafkaJob({ idleTimeout: '30s' }));
  assert.equal(alone.ok, false);
  assert.ok(
    alone.problems.some((p) => p.path === 'nodes[0].config.idleTimeout' && /eventTime/.test(p.message)),
    JSON.stringify(alone.problems),
  );
});
