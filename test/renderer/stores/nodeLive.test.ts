import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OperatorMetrics } from '../../../engine/host/common/api.ts';
import { buildIndex, edgeLive, edgeWidth, liveIndex, nodeLive } from '../../../renderer/src/stores/nodeLive.ts';

function m(nodeId: string, subtask: number, o: Partial<OperatorMetrics> = {}): OperatorMetrics {
  return {
    nodeId,
    subtask,
    recordsIn: 10,
    recordsOut: 8,
    rateIn: 100,
    rateOut: 80,
    watermark: 1000,
    inputWatermarks: [],
    maxEventTime: null,
    lateRecords: 0,
    badRecords: 0,
    stateBytes: 5,
    stateDiskBytes: 0,
    backPressure: 0,
    ...o,
  };
}

describe('nodeLive', () => {
  it("takes the slowest subtask's watermark, sums rates and state, max back-pressure", () => {
    const n = nodeLive(
      [
        m('w', 0, { watermark: 1500, backPressure: 0.3 }),
        m('w', 1, { watermark: 1200, backPressure: 1, lateRecords: 3 }),
      ],
      2000,
    );
    assert.equal(n.watermark, 1200);
    assert.equal(n.lag, 800);
    assert.equal(n.rateOut, 160);
    assert.equal(n.stateBytes, 10);
    assert.equal(n.lateRecords, 3);
    assert.equal(n.backPressure, 1);
    assert.equal(n.pendingRecords, null, 'not a sink');
  });

  it('has no watermark until every subtask has one; counts idle channels; sums pending sink records', () => {
    const n = nodeLive(
      [
        m('s', 0, {
          watermark: null,
          pendingRecords: 4,
          pendingFiles: 1,
          inputWatermarks: [{ channel: 'a#0', watermark: 5, idle: true }],
        }),
        m('s', 1, {
          pendingRecords: 6,
          pendingFiles: 1,
          inputWatermarks: [{ channel: 'a#0', watermark: 7, idle: false }],
        }),
      ],
      2000,
    );
    assert.equal(n.watermark, null);
    assert.equal(n.lag, null);
    assert.equal(n.idleInputs, 1);
    assert.equal(n.inputs, 2);
    assert.equal(n.pendingRecords, 10);
    assert.equal(n.pendingFiles, 2);
  });

  it('measures lag against the newest event time of any source, never the end-of-input watermark', () => {
    const idx = buildIndex(
      new Map([
        ['a', [m('a', 0, { maxEventTime: 5000, watermark: 4500 })]],
        ['b', [m('b', 0, { maxEventTime: 9000, watermark: 8000 })]],
        ['done', [m('done', 0, { watermark: 8.64e15 })]],
      ]),
    );
    assert.equal(idx.newestEventTime, 9000);
    assert.equal(idx.nodes.get('a')!.lag, 4500);
    assert.equal(idx.nodes.get('done')!.lag, null);
  });

  it('marks a sender idle when a downstream channel from it is idle', () => {
    const idx = buildIndex(
      new Map([
        ['b', [m('b', 0, { watermark: null })]],
        [
          'u',
          [
            m('u', 0, {
              inputWatermarks: [
                { channel: 'a#0', watermark: 5, idle: false },
                { channel: 'b#0', watermark: null, idle: true },
              ],
            }),
          ],
        ],
        ['x', [m('x', 1, { inputWatermarks: [{ channel: 'u', watermark: 5, idle: true }] })]],
      ]),
    );
    assert.equal(idx.nodes.get('b')!.idleOutputs, 1);
    assert.equal(idx.nodes.get('u')!.idleInputs, 1);
    assert.equal(idx.nodes.get('u')!.idleOutputs, 1, 'a one-to-one channel names its sender without a subtask');
  });

  it("takes a source's own idle flag over what its downstream channels say", () => {
    const idx = buildIndex(
      new Map([
        ['s', [m('s', 0, { idle: true }), m('s', 1, { idle: false })]],
        ['done', [m('done', 0, { idle: false })]],
        [
          'u',
          [
            m('u', 0, {
              inputWatermarks: [
                { channel: 's#1', watermark: 5, idle: false },
                { channel: 'done#0', watermark: null, idle: true },
              ],
            }),
          ],
        ],
      ]),
    );
    assert.equal(idx.nodes.get('s')!.idleOutputs, 1, 'subtask 0 says it is idle, no channel needed');
    assert.equal(idx.nodes.get('done')!.idleOutputs, 0, 'a source that says it is not idle is not');
  });

  it('builds a tick index once per tick, whatever the number of readers', () => {
    const s = { runId: 'r', time: 1, byNode: new Map([['a', [m('a', 0)]]]) };
    assert.equal(liveIndex(s), liveIndex({ ...s }));
    assert.notEqual(liveIndex(s), liveIndex({ ...s, byNode: new Map(s.byNode) }));
  });

  it("edges carry the sender's output rate; late edges its late count; width grows with rate", () => {
    const idx = buildIndex(new Map([['w', [m('w', 0, { rateOut: 50, lateRecords: 2, backPressure: 1 })]]]));
    assert.deepEqual(edgeLive(idx, 'w', 'out'), { rate: 50, backPressure: 1, late: 0 });
    assert.deepEqual(edgeLive(idx, 'w', 'late'), { rate: 0, backPressure: 0, late: 2 });
    const src = buildIndex(new Map([['f', [m('f', 0, { rateOut: 9, badRecords: 4 })]]]));
    assert.deepEqual(edgeLive(src, 'f', 'bad'), { rate: 0, backPressure: 0, late: 4 }, 'a bad edge: its dead letters');
    assert.equal(edgeLive(idx, 'nope', 'out'), null);
    assert.equal(edgeWidth(0), 1.5);
    assert.ok(edgeWidth(10) < edgeWidth(1000));
    assert.ok(edgeWidth(1e12) <= 7);
  });

  it('marks the busiest operator as the bottleneck, by its busiest subtask, only when it is busy enough', () => {
    const idx = buildIndex(
      new Map([
        ['src', [m('src', 0, { busyMsPerSecond: 200 })]],
        ['agg', [m('agg', 0, { busyMsPerSecond: 300 }), m('agg', 1, { busyMsPerSecond: 900 })]],
        ['out', [m('out', 0, { busyMsPerSecond: 600 })]],
      ]),
    );
    assert.equal(idx.nodes.get('agg')!.busy, 0.9);
    assert.deepEqual(
      [...idx.nodes].filter(([, n]) => n.bottleneck).map(([id]) => id),
      ['agg'],
    );
    const calm = buildIndex(
      new Map([
        ['a', [m('a', 0, { busyMsPerSecond: 100 })]],
        ['b', [m('b', 0)]],
      ]),
    );
    assert.equal(
      [...calm.nodes.values()].some((n) => n.bottleneck),
      false,
      'nothing busy: no bottleneck',
    );
    assert.equal(calm.nodes.get('b')!.busy, null, 'not known before the second report');
  });

  it("follows the back-pressure: the bottleneck is a pressed sender's receiver that is not pressed itself, however busy", () => {
    const chan = (channel: string) => ({ channel, watermark: null, idle: false });
    // src and pos share one chain (one thread, one output): both report the chain's 80% blocked.
    // win, fed by pos over a keyed exchange, is busy only 30% (it waits for the CPU) yet is the one.
    const idx = buildIndex(
      new Map([
        ['src', [m('src', 0, { busyMsPerSecond: 100, backPressuredMsPerSecond: 800 })]],
        ['pos', [m('pos', 0, { busyMsPerSecond: 90, backPressuredMsPerSecond: 800, inputWatermarks: [chan('src')] })]],
        [
          'win',
          [
            m('win', 0, { busyMsPerSecond: 300, backPressuredMsPerSecond: 0, inputWatermarks: [chan('pos#0')] }),
            m('win', 1, { busyMsPerSecond: 250, backPressuredMsPerSecond: 0, inputWatermarks: [chan('pos#0')] }),
          ],
        ],
        ['out', [m('out', 0, { busyMsPerSecond: 450, backPressuredMsPerSecond: 0, inputWatermarks: [chan('win')] })]],
      ]),
    );
    assert.deepEqual(
      [...idx.nodes].filter(([, n]) => n.bottleneck).map(([id]) => id),
      ['win'],
      'out is busier but nothing upstream of it waits',
    );
    const low = buildIndex(
      new Map([
        ['pos', [m('pos', 0, { busyMsPerSecond: 90, backPressuredMsPerSecond: 300 })]],
        ['win', [m('win', 0, { busyMsPerSecond: 300, inputWatermarks: [chan('pos#0')] })]],
      ]),
    );
    assert.equal(
      [...low.nodes.values()].some((n) => n.bottleneck),
      false,
      'LOW back-pressure (under 50%) and nothing busy over half a second: no bottleneck',
    );
  });
});
