// Reading a CDC reader in tests: its changes arrive asynchronously, so reads poll until enough came.
import assert from 'node:assert/strict';
import type { PostgresCdcReader } from '../../../../engine/connectors/postgres/cdc-source.ts';
import type { SourceReadResult } from '../../../../engine/contracts/source.ts';

/** Reads until `n` rows came (at most `max` per read), with their kinds; fails after 30 s. */
export async function readRows(
  r: PostgresCdcReader,
  n: number,
  max = 100,
): Promise<Array<{ kind: string; row: unknown }>> {
  const out: Array<{ kind: string; row: unknown }> = [];
  const deadline = Date.now() + 30_000;
  while (out.length < n) {
    assert.ok(Date.now() < deadline, `only ${out.length} of ${n} rows within 30 s: ${JSON.stringify(out)}`);
    const b: SourceReadResult = await r.read(Math.min(max, n - out.length));
    b.rows.forEach((row, i) => out.push({ kind: b.kinds?.[i] ?? '+I', row }));
    if (b.rows.length === 0) await new Promise((res) => setTimeout(res, b.waitMs ?? 10));
  }
  return out;
}
