/** `source.file`: JSON lines or CSV records from a file, optionally followed as it grows. */
import { z } from 'zod';
import { eventTime, nonEmpty, recordFormat } from '../schema-pieces.ts';
import type { EventTimeConfig, RecordFormat } from '../config.ts';
import { RECORD_FORMAT_OPTIONS } from '../config.ts';
import { mapEventTime } from '../durations.ts';
import { declaredColumnTypes } from '../column-types.ts';
import { checkEventTimeRanges } from '../ranges.ts';
import { clip, str, uniq } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';
import { eventTimeField } from '../shared-fields.ts';

export interface FileSourceConfig {
  path: string;
  format: RecordFormat;
  follow?: boolean;
  /** `dead-letter`: each bad record goes, with file, line and reason, to the source's `bad` port. */
  onBadRecord?: 'skip' | 'fail' | 'dead-letter';
  eventTime?: EventTimeConfig;
  /** Optional declared columns (name -> Flink SQL type); otherwise inferred from the data. */
  columns?: Record<string, string>;
}

/** What an absent key means. */
export const FILE_SOURCE_DEFAULTS = { follow: false, onBadRecord: 'fail' } as const;

const configSchema = z.strictObject({
  path: nonEmpty,
  format: recordFormat,
  follow: z.boolean().optional(),
  onBadRecord: z.enum(['skip', 'fail', 'dead-letter']).optional(),
  eventTime: eventTime.optional(),
  columns: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'Declared columns: name -> Flink SQL type' }),
});
// Compile-time proof: the schema and FileSourceConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, FileSourceConfig>>;

export const fileSource = defineNode<'source.file', FileSourceConfig>({
  type: 'source.file',
  palette: {
    label: 'File source',
    group: 'Sources',
    idPrefix: 'file-source',
    description: 'Reads JSON lines or CSV records from a file, optionally following it as it grows.',
    // document with lines
    icon: 'M6 3h8l4 4v14H6z M14 3v4h4 M9 12h6 M9 15h6 M9 18h4',
    newConfig: () => ({ path: 'data/input.jsonl', format: 'jsonl' }),
    summary: (c) => {
      const et = c.eventTime?.field ? ` · time ${c.eventTime.field}` : '';
      return clip(`${str(c.format) || '?'} ${str(c.path) || '(no path)'}${c.follow ? ' · follow' : ''}${et}`);
    },
  },
  // `bad` carries dead letters (file, line, reason, text) when onBadRecord is `dead-letter`.
  ports: { outputs: ['out', 'bad'], minInputs: 0, maxInputs: 0 },
  deadLetters: { key: 'onBadRecord', value: 'dead-letter' },
  localFile: { key: 'path', access: 'read' },
  // Its reader decodes only the columns read downstream (engine/connectors/jsonl-projection.ts).
  projection: (c) => (c.eventTime ? [c.eventTime.field] : []),
  configSchema,
  // Declared columns, else those sampled from the data; the event-time column in any case.
  completionColumns: (c, ctx) => {
    const cols = c.columns ? Object.keys(c.columns) : (ctx.sampled() ?? []);
    const et = c.eventTime?.field;
    return uniq(et ? [...cols, et] : cols);
  },
  checkRanges: (c, r) => checkEventTimeRanges(r, c.eventTime),
  // Declared columns win; without them, the types a sample of the data gives (as the export's).
  columnTypes: (c, ctx) => declaredColumnTypes(c.columns ?? ctx.sampled() ?? {}),
  mapDurations: (c, f) => (c.eventTime ? { ...c, eventTime: mapEventTime(c.eventTime, f) } : { ...c }),
  eventTime: { has: (c) => !!c.eventTime },
  sourceColumns: (c) => (c.columns ? Object.keys(c.columns) : null),
  defaults: FILE_SOURCE_DEFAULTS,
  fields: [
    { kind: 'text', path: 'path', label: 'Path', help: "Relative to the job file's folder", empty: '' },
    { kind: 'select', path: 'format', label: 'Format', options: RECORD_FORMAT_OPTIONS, empty: 'jsonl' },
    { kind: 'check', path: 'follow', label: 'Follow the file as it grows' },
    {
      kind: 'select',
      path: 'onBadRecord',
      label: 'On a bad record',
      unset: `default (${FILE_SOURCE_DEFAULTS.onBadRecord})`,
      options: [
        { value: 'skip', label: 'skip and count it' },
        { value: 'fail', label: 'fail the job' },
        { value: 'dead-letter', label: "dead-letter: send it to the 'bad' port" },
      ],
    },
    {
      kind: 'columns',
      path: 'columns',
      label: 'Columns',
      sampled: true,
      help: 'Optional: name TYPE, … (e.g. user STRING, amount DOUBLE)',
    },
    eventTimeField(),
  ],
});
