/** `source.generator`: deterministic test records {seq, key, value, ts} (engine/connectors/generator-source.ts). */
import { z } from 'zod';
import { duration, eventTime, nonNegInt, posInt } from '../schema-pieces.ts';
import type { DurationInput, EventTimeConfig } from '../config.ts';
import { mapEventTime, mapOptional } from '../durations.ts';
import { declaredColumnTypes } from '../column-types.ts';
import { MAX_EVENT_DURATION_MS, MAX_TIMESTAMP_MS, checkEventTimeRanges, checkTimestamp } from '../ranges.ts';
import { clip } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { eventTimeField } from '../shared-fields.ts';

export interface GeneratorSourceConfig {
  seed?: number;
  /** Number of records; absent = unbounded. */
  count?: number;
  /** Records per second; absent = as fast as possible. */
  rate?: number;
  /** Key cardinality: keys are `k0` .. `k{keys-1}`. */
  keys?: number;
  /** Random jitter applied to `ts` to make the stream out of order. */
  outOfOrderness?: DurationInput;
  /** Event time of record 0 (epoch ms); default 1_700_000_000_000. */
  startTime?: number;
  /** Event-time step between consecutive records (ms); default 10. */
  step?: number;
  eventTime?: EventTimeConfig;
}

/** The columns every generated record has. */
/** The columns every generated record has, with their Flink SQL types. */
export const GENERATOR_COLUMN_TYPES: ReadonlyArray<readonly [string, string]> = [
  ['seq', 'BIGINT'],
  ['key', 'STRING'],
  ['value', 'BIGINT'],
  ['ts', 'BIGINT'],
];
export const GENERATOR_COLUMNS: readonly string[] = GENERATOR_COLUMN_TYPES.map(([name]) => name);

/** What an absent key means: read by the reader (engine/connectors/generator-source.ts) and the form. */
export const GENERATOR_DEFAULTS = {
  seed: 0,
  keys: 10,
  outOfOrderness: 0,
  startTime: 1_700_000_000_000,
  step: 10,
} as const;

const configSchema = z.strictObject({
  seed: z.number().int().optional(),
  count: nonNegInt.optional().meta({ description: 'Number of records; absent = unbounded' }),
  rate: z.number().positive().optional().meta({ description: 'Records per second; absent = as fast as possible' }),
  keys: posInt.optional(),
  outOfOrderness: duration.optional(),
  startTime: z.number().optional(),
  step: z.number().nonnegative().optional(),
  eventTime: eventTime.optional(),
});
// Compile-time proof: the schema and GeneratorSourceConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, GeneratorSourceConfig>>;

export const generatorSource = defineNode<'source.generator', GeneratorSourceConfig>({
  type: 'source.generator',
  palette: {
    label: 'Generator',
    group: 'Sources',
    idPrefix: 'generator',
    description: 'Deterministic test records (key, value, ts) at a chosen rate, optionally out of order.',
    // spark / generator
    icon: 'M12 3v4 M12 17v4 M3 12h4 M17 12h4 M6 6l2.5 2.5 M15.5 15.5L18 18 M6 18l2.5-2.5 M15.5 8.5L18 6',
    newConfig: () => ({ count: 1000, rate: 100, keys: 10, eventTime: { field: 'ts', maxOutOfOrderness: '1s' } }),
    summary: (c) => {
      const count = c.count === undefined ? 'unbounded' : `${c.count} records`;
      const rate = c.rate === undefined ? '' : ` · ${c.rate}/s`;
      const keys = c.keys === undefined ? '' : ` · ${c.keys} keys`;
      return clip(`${count}${rate}${keys}`);
    },
  },
  ports: { outputs: ['out'], minInputs: 0, maxInputs: 0 },
  configSchema,
  completionColumns: () => [...GENERATOR_COLUMNS],
  checkRanges: (c, r) => {
    checkEventTimeRanges(r, c.eventTime);
    r.span('outOfOrderness', c.outOfOrderness);
    r.int('count', c.count, Number.MAX_SAFE_INTEGER);
    r.int('keys', c.keys, 1_000_000_000);
    if (c.step !== undefined && c.step > MAX_EVENT_DURATION_MS)
      r.error('step', `${c.step} ms is too large: at most ${MAX_EVENT_DURATION_MS}`);
    if (c.startTime !== undefined && !checkTimestamp(r, 'startTime', c.startTime)) return;
    if (c.count === undefined) return;
    const last = (c.startTime ?? GENERATOR_DEFAULTS.startTime) + (c.step ?? GENERATOR_DEFAULTS.step) * c.count;
    if (Math.abs(last) > MAX_TIMESTAMP_MS)
      r.error(
        'count',
        `the last record's event time ${last} would be outside the representable range (±${MAX_TIMESTAMP_MS} ms)`,
      );
  },
  columnTypes: () => declaredColumnTypes(Object.fromEntries(GENERATOR_COLUMN_TYPES)),
  mapDurations: (c, f) => {
    const out = mapOptional(c, 'outOfOrderness', f);
    return c.eventTime ? { ...out, eventTime: mapEventTime(c.eventTime, f) } : out;
  },
  // Always: its `ts` column, watermarked with its own outOfOrderness bound when no eventTime is
  // set (engine/connectors/sources.ts), so it is never late.
  eventTime: { has: () => true },
  sourceColumns: () => GENERATOR_COLUMNS,
  defaults: GENERATOR_DEFAULTS,
  fields: [
    { kind: 'number', path: 'count', label: 'Records', integer: true, min: 0, placeholder: 'unbounded' },
    { kind: 'number', path: 'rate', label: 'Rate', unit: 'records/s', min: 0, placeholder: 'as fast as possible' },
    {
      kind: 'number',
      path: 'keys',
      label: 'Keys',
      integer: true,
      min: 1,
      placeholder: String(GENERATOR_DEFAULTS.keys),
      help: 'Keys are k0 … k(n-1)',
    },
    { kind: 'number', path: 'seed', label: 'Seed', integer: true, placeholder: String(GENERATOR_DEFAULTS.seed) },
    {
      kind: 'duration',
      path: 'outOfOrderness',
      label: 'Out-of-orderness jitter',
      placeholder: String(GENERATOR_DEFAULTS.outOfOrderness),
    },
    {
      kind: 'number',
      path: 'step',
      label: 'Event-time step',
      unit: 'ms',
      min: 0,
      placeholder: String(GENERATOR_DEFAULTS.step),
    },
    eventTimeField(GENERATOR_COLUMNS),
  ],
});
