/** `sink.file`: writes exactly once through two-phase commit; files appear when a checkpoint completes. */
import { z } from 'zod';
import { nonEmpty } from '../schema-pieces.ts';
import { RECORD_FORMAT_OPTIONS, type RecordFormat } from '../config.ts';
import { clip, str } from '../text.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

/** `changelog-json`: one JSON line per change, with an `op` field (`+I`, `-U`, `+U`, `-D`). */
export type FileSinkFormat = RecordFormat | 'changelog-json';
export interface FileSinkConfig {
  path: string;
  format: FileSinkFormat;
}

const configSchema = z.strictObject({ path: nonEmpty, format: z.enum(['jsonl', 'csv', 'changelog-json']) });
// Compile-time proof: the schema and FileSinkConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, FileSinkConfig>>;

export const fileSink = defineNode<'sink.file', FileSinkConfig>({
  type: 'sink.file',
  palette: {
    label: 'File sink',
    group: 'Sinks',
    idPrefix: 'file-sink',
    description: 'Writes exactly once through two-phase commit: files appear when a checkpoint completes.',
    // disk
    icon: 'M5 4h11l3 3v13H5z M8 4v5h7V4 M8 14h8v6H8z',
    newConfig: () => ({ path: 'out/output', format: 'jsonl' }),
    summary: (c) => clip(`${str(c.format) || '?'} ${str(c.path) || '(no path)'}`),
  },
  ports: { outputs: [], minInputs: 1, maxInputs: Infinity },
  localFile: { key: 'path', access: 'write' },
  transactional: { pendingUnit: 'file(s)' },
  // Its pending transactions live in this folder: a restore into another must not lose them.
  stateLayout: (c) => ({ path: c.path }),
  configSchema,
  completionColumns: () => [],
  changelog: {
    accepts: (c) => c.format === 'changelog-json',
    refusalHint: (_c, at) => `: set ${at('format')} to "changelog-json"`,
  },
  defaults: {},
  fields: [
    {
      kind: 'text',
      path: 'path',
      label: 'Path',
      help: 'Folder for committed files, relative to the job file',
      empty: '',
    },
    {
      kind: 'select',
      path: 'format',
      label: 'Format',
      options: [...RECORD_FORMAT_OPTIONS, { value: 'changelog-json', label: 'Changelog JSON ({op, data} per change)' }],
      empty: 'jsonl',
    },
    { kind: 'inputColumns' },
    {
      kind: 'note',
      text: () => 'Exactly once: records become visible when the checkpoint that covers them completes.',
    },
  ],
});
