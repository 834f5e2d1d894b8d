/**
 * Event time from text without a zone is the TIMESTAMP's wall clock read as UTC, whatever the
 * process's time zone: the same instant Weir's TIMESTAMP values and Flink's TIMESTAMP rowtime give.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEventTime } from '../../../../engine/connectors/formats/event-time.ts';
import { toTimestamp } from '../../../../engine/sql/values.ts';

test('a zoneless date-time is read as UTC in any process time zone; zoned text keeps its zone', () => {
  const before = process.env.TZ;
  try {
    for (const tz of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
      process.env.TZ = tz;
      const at = Date.UTC(2023, 10, 14, 22, 13, 20);
      assert.equal(parseEventTime('2023-11-14 22:13:20.000'), at, tz);
      assert.equal(parseEventTime('2023-11-14T22:13:20'), at, tz);
      assert.equal(parseEventTime('2023-11-14T22:13'), Date.UTC(2023, 10, 14, 22, 13), tz);
      assert.equal(parseEventTime('2023-11-14T22:13:20.000Z'), at, tz);
      assert.equal(parseEventTime('2023-11-14T23:13:20+01:00'), at, tz);
      assert.equal(parseEventTime('2023-11-14'), Date.UTC(2023, 10, 14), tz);
      assert.equal(parseEventTime(String(at)), at, tz);
      // The same instant as the TIMESTAMP value of the same text.
      assert.equal(parseEventTime('2024-03-10 02:30:00'), Date.parse(toTimestamp('2024-03-10 02:30:00')!), tz);
      assert.ok(Number.isNaN(parseEventTime('yesterday')), tz);
    }
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
});
