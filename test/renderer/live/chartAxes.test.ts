/**
 * Every tick step a live chart's value axis offers formats distinct labels for the ticks uPlot can
 * draw with it (0 and up to ten multiples: the y range starts at 0), so no axis reads `1/s, 1/s`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BYTES_AXIS,
  DURATION_AXIS,
  RATE_AXIS,
  RATIO_AXIS,
  type ValueAxis,
} from '../../../renderer/src/live/chartAxes.ts';
import { rate } from '../../../renderer/src/live/format.ts';

const AXES: Record<string, ValueAxis> = {
  rate: RATE_AXIS,
  duration: DURATION_AXIS,
  ratio: RATIO_AXIS,
  bytes: BYTES_AXIS,
};

describe('live chart value axes', () => {
  for (const [name, axis] of Object.entries(AXES)) {
    it(`${name}: ticks of every step read differently`, () => {
      assert.ok(axis.incrs.length > 5, 'guard: steps to choose from');
      assert.deepEqual(
        [...axis.incrs],
        [...axis.incrs].sort((a, b) => a - b),
        'ascending',
      );
      for (const incr of axis.incrs) {
        const labels = Array.from({ length: 11 }, (_, k) => axis.format(k * incr));
        assert.equal(new Set(labels).size, labels.length, `step ${incr}: ${labels.join(', ')}`);
      }
    });
  }

  it("guard: uPlot's default half step would repeat a rate label", () => {
    assert.equal(rate(0.5), rate(1));
    assert.ok(!RATE_AXIS.incrs.includes(0.5));
  });
});
