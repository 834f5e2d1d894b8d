/** `source.nexmark`: the Nexmark benchmark's events on three ports (engine/connectors/nexmark). */
import { z } from 'zod';
import { duration, nonNegInt, posInt } from '../schema-pieces.ts';
import type { DurationInput } from '../config.ts';
import { mapOptional } from '../durations.ts';
import { MAX_TIMESTAMP_MS, checkTimestamp } from '../ranges.ts';
import { clip } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import {
  NEXMARK_DEFAULT_BASE_TIME,
  NEXMARK_DEFAULT_EVENT_RATE,
  NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS,
  NEXMARK_PORTS,
} from './nexmark.ts';

/**
 * `source.nexmark`: the Nexmark benchmark's events (engine/connectors/nexmark), deterministic per
 * seed, on three ports `person`, `auction`, `bid` with event time `dateTime` (epoch ms).
 */
export interface NexmarkSourceConfig {
  /** Number of events (persons, auctions and bids together); absent = unbounded. */
  events?: number;
  seed?: number;
  /** Events per second (Flink's `first-event.rate`): throttles emission and spaces event time; absent = as fast as possible, event time spaced at 10 000 events/s. */
  rate?: number;
  /** Event time of event 0 (epoch ms); default 1_700_000_000_000. */
  baseTime?: number;
  /** Watermark delay behind the largest `dateTime` read; default 4s (Flink's Nexmark DDL). */
  maxOutOfOrderness?: DurationInput;
}

/** What an absent key means, for the reader (engine/connectors/nexmark) and the form. */
export const NEXMARK_DEFAULTS = {
  seed: 0,
  baseTime: NEXMARK_DEFAULT_BASE_TIME,
  maxOutOfOrderness: `${NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS / 1000}s`,
} as const;

const configSchema = z.strictObject({
  events: posInt.optional().meta({ description: 'Number of events (persons, auctions and bids); absent = unbounded' }),
  seed: nonNegInt.optional(),
  rate: z
    .number()
    .positive()
    .optional()
    .meta({ description: 'Events per second: throttles emission and spaces event time; absent = as fast as possible' }),
  baseTime: z.number().int().optional().meta({ description: 'Event time of event 0 (epoch ms)' }),
  maxOutOfOrderness: duration.optional(),
});
// Compile-time proof: the schema and NexmarkSourceConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, NexmarkSourceConfig>>;

export const nexmarkSource = defineNode<'source.nexmark', NexmarkSourceConfig>({
  type: 'source.nexmark',
  palette: {
    label: 'Nexmark',
    group: 'Sources',
    idPrefix: 'nexmark',
    description:
      'The Nexmark benchmark events, deterministic per seed: persons, auctions and bids (1 : 3 : 46) on three ports, event time dateTime.',
    // gavel (auctions)
    icon: 'M5 21h10 M8 17h4 M13 3l6 6 M10 6l6 6 M11.5 4.5l-4 4 6 6 4-4 M9.5 10.5L3 17',
    newConfig: () => ({ events: 100_000, seed: 0 }),
    summary: (c) => {
      const events = c.events === undefined ? 'unbounded' : `${c.events} events`;
      const rate = c.rate === undefined ? '' : ` · ${c.rate}/s`;
      return clip(`${events} · seed ${c.seed ?? NEXMARK_DEFAULTS.seed}${rate}`);
    },
  },
  ports: { outputs: NEXMARK_PORTS, minInputs: 0, maxInputs: 0 },
  configSchema,
  // Per port: the designer reads them from nexmark.ts.
  completionColumns: () => [],
  checkRanges: (c, r) => {
    r.span('maxOutOfOrderness', c.maxOutOfOrderness);
    r.int('events', c.events, Number.MAX_SAFE_INTEGER);
    r.int('seed', c.seed, Number.MAX_SAFE_INTEGER);
    if (c.baseTime !== undefined && !checkTimestamp(r, 'baseTime', c.baseTime)) return;
    if (c.events === undefined) return;
    // Event n's time: baseTime + n * 1000 / rate ms (10 000 events/s without a rate).
    const last = (c.baseTime ?? NEXMARK_DEFAULTS.baseTime) + (c.events * 1000) / (c.rate ?? NEXMARK_DEFAULT_EVENT_RATE);
    if (Math.abs(last) > MAX_TIMESTAMP_MS)
      r.error(
        'events',
        `the last event's time ${last} would be outside the representable range (±${MAX_TIMESTAMP_MS} ms)`,
      );
  },
  mapDurations: (c, f) => mapOptional(c, 'maxOutOfOrderness', f),
  // `dateTime`, watermarked maxOutOfOrderness behind.
  eventTime: { has: () => true },
  // Per port (person, auction, bid): nexmark.ts.
  sourceColumns: () => null,
  defaults: NEXMARK_DEFAULTS,
  fields: [
    {
      kind: 'number',
      path: 'events',
      label: 'Events',
      integer: true,
      min: 1,
      placeholder: 'unbounded',
      help: 'Persons, auctions and bids together (1 : 3 : 46)',
    },
    {
      kind: 'number',
      path: 'seed',
      label: 'Seed',
      integer: true,
      min: 0,
      placeholder: String(NEXMARK_DEFAULTS.seed),
      help: 'Same seed and events: the same data (weir nexmark generate writes it to files)',
    },
    {
      kind: 'number',
      path: 'rate',
      label: 'Rate',
      unit: 'events/s',
      min: 0,
      placeholder: 'as fast as possible',
      help: 'Also spaces event time (default 10 000 events per second of event time)',
    },
    {
      kind: 'number',
      path: 'baseTime',
      label: 'Base time',
      unit: 'epoch ms',
      integer: true,
      placeholder: String(NEXMARK_DEFAULTS.baseTime),
    },
    {
      kind: 'duration',
      path: 'maxOutOfOrderness',
      label: 'Watermark delay',
      placeholder: NEXMARK_DEFAULTS.maxOutOfOrderness,
    },
  ],
});
