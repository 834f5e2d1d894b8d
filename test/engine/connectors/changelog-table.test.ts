/** sink.preview's materialized view of a changelog, and the changelog-json line format. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangelogTable, changelogJsonLines } from '../../../engine/connectors/changelog-table.ts';
import { PreviewSinkOperator } from '../../../engine/connectors/preview-sink.ts';
import { OperatorTestHarness } from '../../support/harness/index.ts';
import type { OperatorServices } from '../../../engine/contracts/operator-services.ts';

test('updates replace a row in place; deletes remove it; unknown retractions are ignored', () => {
  const t = new ChangelogTable();
  t.apply('+I', { k: 'a', n: 1 });
  t.apply('+I', { k: 'b', n: 1 });
  t.apply('+I', { k: 'c', n: 1 });
  t.apply('-U', { k: 'a', n: 1 });
  t.apply('+U', { k: 'a', n: 2 });
  assert.deepEqual(
    t.rows(),
    [
      { k: 'a', n: 2 },
      { k: 'b', n: 1 },
      { k: 'c', n: 1 },
    ],
    'a stays first',
  );
  t.apply('-D', { k: 'b', n: 1 });
  t.apply('-D', { k: 'zzz', n: 9 });
  assert.deepEqual(t.rows(), [
    { k: 'a', n: 2 },
    { k: 'c', n: 1 },
  ]);
  assert.equal(t.size, 2);
  assert.deepEqual(t.rows(1), [{ k: 'a', n: 2 }]);
  for (let i = 0; i < 500; i++) {
    t.apply('-U', { k: 'c', n: i + 1 });
    t.apply('+U', { k: 'c', n: i + 2 });
  }
  assert.deepEqual(
    t.rows(),
    [
      { k: 'a', n: 2 },
      { k: 'c', n: 501 },
    ],
    'many updates: still two rows, in place',
  );
});

test('changelog-json writes one {op, data} line per change; append-only input is all +I', () => {
  assert.equal(
    changelogJsonLines([{ a: 1 }, { a: 2 }], ['-U', '+U']),
    '{"op":"-U","data":{"a":1}}\n{"op":"+U","data":{"a":2}}\n',
  );
  assert.equal(changelogJsonLines([{ a: 1 }], undefined), '{"op":"+I","data":{"a":1}}\n');
});

test('sink.preview on a changelog sends the materialized table', async () => {
  const sent: unknown[][] = [];
  const services = { sendPreview: (_t: string, rows: unknown[]) => sent.push(rows) } as unknown as OperatorServices;
  const h = await OperatorTestHarness.open(() => new PreviewSinkOperator({ limit: 10 }, services), { keyed: false });
  await h.processBatch({
    rows: [
      { k: 'a', n: 1 },
      { k: 'a', n: 1 },
      { k: 'a', n: 2 },
    ],
    ts: [1, 2, 2],
    kinds: ['+I', '-U', '+U'],
  });
  await h.endInput();
  await h.close();
  assert.deepEqual(sent.at(-1), [{ k: 'a', n: 2 }]);
});
