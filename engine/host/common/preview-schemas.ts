/**
 * The host API's preview part (schemas.ts holds the method list): a preview run of the open job over
 * a sample of each source with sinks off (engine/runtime/preview), and a trace of one record through
 * it. Browser-safe; the result types are the runtime's own, pinned here by `satisfies`.
 */
import { z } from 'zod';
import { ROW_KINDS } from '../../contracts/operator.ts';

const nodeId = z.string().min(1).max(200);

export const previewRunParams = {
  /** Records read from each source (default 100). */
  records: z.number().int().min(1).max(10_000).optional(),
};

export const traceTarget = z.strictObject({ source: nodeId, index: z.number().int().min(0).max(10_000) });

const previewRow = z.object({
  row: z.record(z.string(), z.unknown()),
  ts: z.number().nullable(),
  kind: z.enum(ROW_KINDS).optional(),
});
const portRows = z.object({ count: z.number(), rows: z.array(previewRow) });

export const previewResultSchema = z.object({
  nodes: z.record(
    z.string(),
    z.object({
      nodeId: z.string(),
      rowsIn: z.number(),
      out: z.record(z.string(), portRows),
      wouldWrite: z.array(previewRow).optional(),
      lateRecords: z.number(),
      badRecords: z.array(z.object({ where: z.string(), message: z.string() })),
      watermark: z.number().nullable(),
    }),
  ),
  sources: z.record(z.string(), z.object({ records: z.number(), ended: z.boolean() })),
  elapsedMs: z.number(),
});

const tracedRow = previewRow.extend({ port: z.string() });
export const traceResultSchema = z.object({
  record: tracedRow.nullable(),
  nodes: z.record(z.string(), z.object({ contributed: z.array(tracedRow), replaced: z.array(tracedRow) })),
});
