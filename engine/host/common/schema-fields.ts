/**
 * The field schemas that the host API's requests, results and events share (schemas.ts puts the
 * API together). Browser-safe.
 */
import { z } from 'zod';
import type { JobDocument } from '../../graph/types.ts';
import { JOB_STATUSES } from '../../contracts/run-events.ts';

/** Job documents cross as JSON objects; their structure is the host validator's business. */
export const jobObject = z.record(z.string(), z.unknown()).transform((j) => j as unknown as JobDocument);
export const empty = z.strictObject({});
export const runId = z.string().min(1).max(200);
export const path = z.string().min(1).max(4096);
export const jobStatus = z.enum(JOB_STATUSES);
export const stateBackend = z.enum(['memory', 'fs', 'rocksdb']);
export const checkpointKind = z.enum(['checkpoint', 'savepoint']);

export const problem = z.object({
  path: z.string(),
  message: z.string(),
  /** Node id when the problem belongs to one node (lets the designer outline it). */
  nodeId: z.string().optional(),
  severity: z.enum(['error', 'warning']).optional(),
});

const subtaskStats = z.object({
  operatorId: z.string(),
  subtask: z.number(),
  startDelay: z.number(),
  alignmentDuration: z.number(),
  syncDuration: z.number(),
  asyncDuration: z.number(),
  checkpointedBytes: z.number(),
  fullBytes: z.number(),
  limitBytes: z.number().optional(),
});
export const checkpointStats = z.object({
  id: z.number(),
  kind: checkpointKind,
  status: z.enum(['in_progress', 'completed', 'failed']),
  triggerTime: z.number(),
  duration: z.number().nullable(),
  acknowledged: z.number(),
  total: z.number(),
  checkpointedBytes: z.number(),
  fullBytes: z.number(),
  subtasks: z.array(subtaskStats),
  failureReason: z.string().optional(),
  location: z.string().optional(),
});
