/**
 * The zod pieces node config schemas are built from: durations, sizes, counts, non-empty text,
 * record formats, event time and window specs. Each type's definition builds its config schema
 * from these; engine/graph/schema.ts assembles the job document's schema. Browser-safe.
 */
import { z } from 'zod';
import type { EventTimeConfig, WindowSpec } from './config.ts';
import type { Assert, Eq, SchemaMatches } from './definition.ts';
import { checkDuration, checkSize } from './units.ts';
import { checkSignedDuration } from './signed-duration.ts';

// JSON Schema patterns have no flags, so case-insensitivity is spelled out.
const NUMBER_RE = String.raw`\s*(\d+(\.\d+)?|\.\d+)\s*`;
export const DURATION_PATTERN = new RegExp(`^${NUMBER_RE}([mM][sS]|[sSmMhHdD])?\\s*$`);
export const SIGNED_DURATION_PATTERN = new RegExp(`^\\s*-?${NUMBER_RE}([mM][sS]|[sSmMhHdD])?\\s*$`);
export const SIZE_PATTERN = new RegExp(`^${NUMBER_RE}([bB]|[kKmMgG][bB])?\\s*$`);

function unitError(check: (v: unknown) => { ok: boolean; message?: string }) {
  return (iss: { input?: unknown }) => {
    const r = check(iss.input);
    return r.ok ? undefined : r.message;
  };
}
const durationError = { error: unitError(checkDuration) };
const sizeError = { error: unitError(checkSize) };

export const duration = z
  .union([z.number().nonnegative(durationError), z.string().regex(DURATION_PATTERN, durationError)], durationError)
  .meta({ id: 'Duration', description: "Milliseconds, or a string with a unit: '500ms', '5s', '5m', '2h', '1d'" });

const signedDurationError = { error: unitError(checkSignedDuration) };
export const signedDuration = z
  .union(
    [z.number(signedDurationError), z.string().regex(SIGNED_DURATION_PATTERN, signedDurationError)],
    signedDurationError,
  )
  .meta({ id: 'SignedDuration', description: "A duration that may be negative: '-5s', '2s', -500" });

export const size = z
  .union([z.number().int(sizeError).nonnegative(sizeError), z.string().regex(SIZE_PATTERN, sizeError)], sizeError)
  .meta({ id: 'Size', description: "Bytes, or a string with a unit: '512kb', '5mb', '1gb'" });

export const posInt = z.number().int().min(1);
export const nonNegInt = z.number().int().min(0);
export const nonEmpty = z.string().min(1, { error: 'must not be empty' });

export const recordFormat = z.enum(['jsonl', 'csv']);

export const eventTime = z.strictObject({
  field: nonEmpty.meta({ description: 'Column holding epoch milliseconds or an ISO-8601 string' }),
  maxOutOfOrderness: duration.optional(),
  idleTimeout: duration.optional(),
});

export const windowSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tumbling'), size: duration }),
  z.strictObject({ kind: z.literal('sliding'), size: duration, slide: duration }),
  z.strictObject({ kind: z.literal('session'), gap: duration }),
]);

type Keys<T> = T extends unknown ? [keyof T] : never;
export type _PieceChecks = [
  Assert<SchemaMatches<typeof eventTime, EventTimeConfig>>,
  Assert<SchemaMatches<typeof windowSpec, WindowSpec>>,
  Assert<Eq<Keys<z.infer<typeof windowSpec>>, Keys<WindowSpec>>>,
];
