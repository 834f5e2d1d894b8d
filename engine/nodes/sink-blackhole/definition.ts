/**
 * `sink.blackhole`: discards every record, as Flink's `blackhole` connector. For measuring or
 * trying a pipeline without writing its results anywhere; the Nexmark suite's own queries end in
 * one, and a Flink SQL script with a blackhole table imports as this node.
 */
import { z } from 'zod';
import { defineNode } from '../definition.ts';

/** No settings: an unknown key is an error, as for every node. */
const configSchema = z.strictObject({});
export type BlackholeSinkConfig = z.infer<typeof configSchema>;

export const blackholeSink = defineNode<'sink.blackhole', BlackholeSinkConfig>({
  type: 'sink.blackhole',
  palette: {
    label: 'Blackhole',
    group: 'Sinks',
    idPrefix: 'blackhole',
    description: "Discards every record, as Flink's blackhole connector: measure a pipeline without writing it.",
    // a circle with a dot: records go in and nothing comes out
    icon: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z M12 10.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3z',
    newConfig: () => ({}),
    summary: () => 'discards every record',
  },
  ports: { outputs: [], minInputs: 1, maxInputs: Infinity },
  configSchema,
  completionColumns: () => [],
  changelog: { accepts: () => true },
  defaults: {},
  fields: [{ kind: 'inputColumns' }],
});
