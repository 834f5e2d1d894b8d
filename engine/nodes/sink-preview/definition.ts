/** `sink.preview`: a live sample of the records reaching it, shown in the app. */
import { z } from 'zod';
import { posInt } from '../schema-pieces.ts';
import { defineNode, type Assert, type SchemaMatches } from '../definition.ts';

export interface PreviewSinkConfig {
  limit?: number;
}

/** What an absent key means: read by the operator (engine/connectors/preview-sink.ts) and the form. */
export const PREVIEW_SINK_DEFAULTS = { limit: 100 } as const;

const configSchema = z.strictObject({ limit: posInt.optional() });
// Compile-time proof: the schema and PreviewSinkConfig describe the same configs, key for key.
export type _ConfigSchemaCheck = Assert<SchemaMatches<typeof configSchema, PreviewSinkConfig>>;

export const previewSink = defineNode<'sink.preview', PreviewSinkConfig>({
  type: 'sink.preview',
  palette: {
    label: 'Preview',
    group: 'Sinks',
    idPrefix: 'preview',
    description: 'Shows a live sample of the records reaching it in the app.',
    // eye
    icon: 'M2 12c3-5 7-7 10-7s7 2 10 7c-3 5-7 7-10 7s-7-2-10-7z M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z',
    newConfig: () => ({ limit: PREVIEW_SINK_DEFAULTS.limit }),
    summary: (c) => `last ${c.limit ?? PREVIEW_SINK_DEFAULTS.limit} records`,
  },
  ports: { outputs: [], minInputs: 1, maxInputs: Infinity },
  configSchema,
  completionColumns: () => [],
  checkRanges: (c, r) => r.int('limit', c.limit, 100_000),
  changelog: { accepts: () => true },
  defaults: PREVIEW_SINK_DEFAULTS,
  fields: [
    {
      kind: 'number',
      path: 'limit',
      label: 'Keep last',
      integer: true,
      min: 1,
      placeholder: String(PREVIEW_SINK_DEFAULTS.limit),
      help: 'Records kept for the live preview',
    },
    { kind: 'inputColumns' },
  ],
});
