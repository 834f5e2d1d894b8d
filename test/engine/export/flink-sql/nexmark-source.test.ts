// source.nexmark exports as the Nexmark suite declares it: a table on the nexmark connector with a
// row per event kind and one view per port; edges read their port's view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportFlinkSql } from '../../../../engine/export/flink-sql/index.ts';
import { describeSyntaxErrors, flinkSyntaxErrors } from './grammar.ts';
import { job } from './jobs.ts';

const doc = {
  name: 'nexmark-export',
  nodes: [
    { id: 'nx', type: 'source.nexmark', config: { events: 5000, seed: 3, rate: 2000, maxOutOfOrderness: '2s' } },
    { id: 'cheap', type: 'filter', config: { where: 'price < 100' } },
    { id: 'west', type: 'filter', config: { where: "state = 'OR'" } },
    { id: 'bids', type: 'sink.file', config: { path: 'out/bids', format: 'jsonl' } },
    { id: 'people', type: 'sink.file', config: { path: 'out/people', format: 'jsonl' } },
  ],
  edges: [
    { from: 'nx', fromPort: 'bid', to: 'cheap' },
    { from: 'nx', fromPort: 'person', to: 'west' },
    { from: 'cheap', to: 'bids' },
    { from: 'west', to: 'people' },
  ],
} as const;

test('source.nexmark: the nexmark connector table, a view per port, edges reading their port', () => {
  const { text, warnings } = exportFlinkSql(job(doc as never));
  assert.deepEqual(flinkSyntaxErrors(text), [], describeSyntaxErrors(text, flinkSyntaxErrors(text)));
  assert.match(text, /CREATE TABLE nx \(\n {2}event_type INT,\n {2}person ROW<id BIGINT, name STRING/);
  assert.match(
    text,
    /'connector' = 'nexmark',\n {2}'first-event.rate' = '2000',\n {2}'next-event.rate' = '2000',\n {2}'events.num' = '5000'/,
  );
  assert.match(text, /WATERMARK FOR rowtime AS rowtime - INTERVAL '2' SECOND - INTERVAL '0.001' SECOND/);
  for (const [port, kind] of [
    ['person', 0],
    ['auction', 1],
    ['bid', 2],
  ] as const)
    assert.match(
      text,
      new RegExp(`CREATE VIEW nx__${port} AS\\nSELECT ${port}\\.[^\\n]*\\nFROM nx\\nWHERE event_type = ${kind};`),
    );
  assert.match(text, /FROM nx__bid\nWHERE price < 100;/);
  assert.match(text, /FROM nx__person\nWHERE state = 'OR';/);
  assert.ok(
    warnings.some((w) => w.path === 'nodes[0].config.seed'),
    'the unseeded connector is a warning',
  );
});
