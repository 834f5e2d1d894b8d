// Flink's busy / back-pressured / idle time per second: each chained operator's own calls are timed,
// and the per-second figures come from the difference between two reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainLink, OperatorChain } from '../../../../engine/runtime/task/task-chain.ts';
import { times } from '../../../../engine/runtime/task/task-metrics.ts';
import type { RecordBatch, StreamOperator } from '../../../../engine/contracts/operator.ts';

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy on purpose: the test measures CPU time in the operator */
  }
}

function operator(msPerBatch: number, forward: (b: RecordBatch) => void): StreamOperator {
  return {
    open: async () => {},
    processBatch: async (b) => {
      spin(msPerBatch);
      forward(b);
    },
    processWatermark: async () => {},
    snapshotState: async () => ({}),
    notifyCheckpointComplete: async () => {},
    endInput: async () => {},
    close: async () => {},
  };
}

test("each chained operator's busy time is its own, not its successors'", async () => {
  const links: ChainLink[] = [];
  const slow = new ChainLink(
    'slow',
    operator(30, (b) => links[0].emit(b)),
  );
  const fast = new ChainLink(
    'fast',
    operator(2, () => {}),
  );
  links.push(slow, fast);
  const chain = new OperatorChain([slow, fast], null as never);
  for (let i = 0; i < 3; i++) await chain.pushBatch(0, { rows: [{ a: i }], ts: [0] }, 0);
  assert.ok(slow.busyMs >= 90, `slow: ${slow.busyMs} ms`);
  assert.ok(fast.busyMs >= 6 && fast.busyMs < 60, `fast: ${fast.busyMs} ms (its own calls only)`);
});

test('per-second figures: busy is the element’s own, back-pressured and idle its subtask’s', () => {
  const id = `op#${Math.random()}`;
  assert.deepEqual(times(id, 0, 0, 0, 1000), {}, 'nothing on the first report');
  // Over 2 s: this operator 500 ms busy, the whole chain 800 ms, blocked on output 600 ms.
  assert.deepEqual(times(id, 500, 800, 600, 3000), {
    busyMsPerSecond: 250,
    backPressuredMsPerSecond: 300,
    idleMsPerSecond: 300,
  });
  // Clamped to one second per second whatever the timer says.
  assert.equal(times(id, 5000, 5000, 600, 4000).busyMsPerSecond, 1000);
});
