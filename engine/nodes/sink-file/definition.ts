/** `sink.file`: writes exactly once through two-phase commit; files appear when a checkpoint completes. */
import { RECORD_FORMAT_OPTIONS, type RecordFormat } from '../config.ts';
import { defineNode } from '../definition.ts';

/** `changelog-json`: one JSON line per change, with an `op` field (`+I`, `-U`, `+U`, `-D`). */
export type FileSinkFormat = RecordFormat | 'changelog-json';
export interface FileSinkConfig {
  path: string;
  format: FileSinkFormat;
}

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
  },
  ports: { outputs: [], minInputs: 1, maxInputs: Infinity },
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
