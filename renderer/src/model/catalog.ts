/**
 * What the designer knows about each node type: palette group, label, ports and a default config.
 * Plain TypeScript (no React) so the rules are unit-testable and shared by palette, canvas and
 * inspector. Port typing itself (what may connect to what) lives in `connections.ts`.
 */
import type { JobNode, NodeConfigByType, NodeType } from '../../../engine/graph/types.ts';
import { outputPorts, type OutputPort } from '../../../engine/graph/ports.ts';

export type { OutputPort };

export type PaletteGroup = 'Sources' | 'Transforms' | 'Windows' | 'Sinks';
export const PALETTE_GROUPS: readonly PaletteGroup[] = ['Sources', 'Transforms', 'Windows', 'Sinks'];

export interface NodeTypeInfo<T extends NodeType = NodeType> {
  type: T;
  label: string;
  group: PaletteGroup;
  description: string;
  /** Short id prefix for new nodes (`filter` -> `filter-2`). */
  idPrefix: string;
  /** Sources take no input; every other type has exactly one input handle (`in`). */
  hasInput: boolean;
  /**
   * Outputs every node of this type has: sinks none; windows also emit late records on `late`.
   * Ports that depend on config (a file source's `bad`) come from `nodeOutputs`.
   */
  outputs: readonly OutputPort[];
  /** A union merges many streams; every other input accepts exactly one edge. */
  multiInput: boolean;
  defaultConfig: () => NodeConfigByType[T];
}

function info<T extends NodeType>(i: NodeTypeInfo<T>): NodeTypeInfo<T> {
  return i;
}

export const CATALOG: { [T in NodeType]: NodeTypeInfo<T> } = {
  'source.file': info({
    type: 'source.file',
    label: 'File source',
    group: 'Sources',
    idPrefix: 'file-source',
    description: 'Reads JSON lines or CSV records from a file, optionally following it as it grows.',
    hasInput: false,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({ path: 'data/input.jsonl', format: 'jsonl' }),
  }),
  'source.generator': info({
    type: 'source.generator',
    label: 'Generator',
    group: 'Sources',
    idPrefix: 'generator',
    description: 'Deterministic test records (key, value, ts) at a chosen rate, optionally out of order.',
    hasInput: false,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({ count: 1000, rate: 100, keys: 10, eventTime: { field: 'ts', maxOutOfOrderness: '1s' } }),
  }),
  'source.nexmark': info({
    type: 'source.nexmark',
    label: 'Nexmark',
    group: 'Sources',
    idPrefix: 'nexmark',
    description:
      'The Nexmark benchmark events, deterministic per seed: persons, auctions and bids (1 : 3 : 46) on three ports, event time dateTime.',
    hasInput: false,
    outputs: ['person', 'auction', 'bid'],
    multiInput: false,
    defaultConfig: () => ({ events: 100_000, seed: 0 }),
  }),
  'source.postgres': info({
    type: 'source.postgres',
    label: 'PostgreSQL',
    group: 'Sources',
    idPrefix: 'postgres',
    description: 'A PostgreSQL table: read once in key order (snapshot), or its snapshot and then its changes (CDC).',
    hasInput: false,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({
      url: 'postgresql://postgres@localhost:5432/postgres',
      table: 'public.orders',
      mode: 'cdc',
    }),
  }),
  filter: info({
    type: 'filter',
    label: 'Filter',
    group: 'Transforms',
    idPrefix: 'filter',
    description: 'Keeps the records for which a SQL condition is true.',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({ where: '' }),
  }),
  map: info({
    type: 'map',
    label: 'Map',
    group: 'Transforms',
    idPrefix: 'map',
    description: 'Computes new columns with a SQL select list.',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({ select: '*' }),
  }),
  union: info({
    type: 'union',
    label: 'Union',
    group: 'Transforms',
    idPrefix: 'union',
    description: 'Merges several streams into one; watermarks advance with the slowest input.',
    hasInput: true,
    outputs: ['out'],
    multiInput: true,
    defaultConfig: () => ({}),
  }),
  window: info({
    type: 'window',
    label: 'Window',
    group: 'Windows',
    idPrefix: 'window',
    description:
      'Event-time windows (tumbling, sliding, session) with SQL aggregates; late records on a side output. Tumbling and sliding windows also take a changelog (-U/-D retract).',
    hasInput: true,
    outputs: ['out', 'late'],
    multiInput: false,
    defaultConfig: () => ({ window: { kind: 'tumbling', size: '10s' }, aggregates: 'COUNT(*) AS n' }),
  }),
  'join.interval': info({
    type: 'join.interval',
    label: 'Interval join',
    group: 'Transforms',
    idPrefix: 'join',
    description: 'Joins a left and a right stream on equal keys when their event times are within an interval.',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({
      leftKey: 'key',
      rightKey: 'key',
      lower: '-5s',
      upper: '5s',
      select: 'L.key, L.ts AS left_ts, R.ts AS right_ts',
    }),
  }),
  'join.window': info({
    type: 'join.window',
    label: 'Window join',
    group: 'Windows',
    idPrefix: 'window-join',
    description: 'Joins left and right records with equal keys that fall into the same event-time window.',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({
      leftKey: 'key',
      rightKey: 'key',
      window: { kind: 'tumbling', size: '10s' },
      select: 'window_start, window_end, L.key, L.value AS left_value, R.value AS right_value',
    }),
  }),
  join: info({
    type: 'join',
    label: 'Join',
    group: 'Transforms',
    idPrefix: 'join',
    description: 'A regular inner or outer join on equal keys; outer joins emit a changelog.',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({
      kind: 'inner',
      leftKey: 'key',
      rightKey: 'key',
      select: 'L.key, L.value AS left_value, R.value AS right_value',
      stateTtl: '1h',
    }),
  }),
  aggregate: info({
    type: 'aggregate',
    label: 'Aggregate',
    group: 'Transforms',
    idPrefix: 'aggregate',
    description:
      'Group aggregation over everything seen so far, per key: a changelog of updated results. Takes a changelog too (-U/-D retract).',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({ keyBy: 'key', aggregates: 'COUNT(*) AS n' }),
  }),
  topn: info({
    type: 'topn',
    label: 'Top N',
    group: 'Transforms',
    idPrefix: 'topn',
    description: 'The first N rows per partition in a sort order (limit 1 by time: deduplication); a changelog.',
    hasInput: true,
    outputs: ['out'],
    multiInput: false,
    defaultConfig: () => ({ partitionBy: 'key', orderBy: 'value DESC', limit: 3 }),
  }),
  'sink.file': info({
    type: 'sink.file',
    label: 'File sink',
    group: 'Sinks',
    idPrefix: 'file-sink',
    description: 'Writes exactly once through two-phase commit: files appear when a checkpoint completes.',
    hasInput: true,
    outputs: [],
    multiInput: true,
    defaultConfig: () => ({ path: 'out/output', format: 'jsonl' }),
  }),
  'sink.postgres': info({
    type: 'sink.postgres',
    label: 'PostgreSQL sink',
    group: 'Sinks',
    idPrefix: 'pg-sink',
    description:
      'Writes into an existing PostgreSQL table exactly once: a prepared transaction per checkpoint (append), or a changelog applied by key (upsert).',
    hasInput: true,
    outputs: [],
    multiInput: true,
    defaultConfig: () => ({
      url: 'postgresql://postgres@localhost:5432/postgres',
      table: 'public.output',
      mode: 'append',
    }),
  }),
  'sink.preview': info({
    type: 'sink.preview',
    label: 'Preview',
    group: 'Sinks',
    idPrefix: 'preview',
    description: 'Shows a live sample of the records reaching it in the app.',
    hasInput: true,
    outputs: [],
    multiInput: true,
    defaultConfig: () => ({ limit: 100 }),
  }),
};

/** Shown for a node whose type this version does not know (a file from elsewhere): never crash. */
const UNKNOWN: NodeTypeInfo = {
  type: 'map',
  label: 'Unknown type',
  group: 'Transforms',
  idPrefix: 'node',
  description: 'A node type this version of Weir does not know; fix or delete it.',
  hasInput: true,
  outputs: ['out'],
  multiInput: true,
  defaultConfig: () => ({ select: '*' }),
};

/**
 * The output handles one node shows: the engine's ports for its type (`ports.ts`), minus a file
 * source's `bad` port unless its `onBadRecord` is `dead-letter` (otherwise nothing leaves there and
 * the validator refuses an edge from it). `wiredBad`: an edge already leaves `bad`; the handle stays
 * so that edge stays drawn (and deletable) while the validator explains what is wrong. A type this
 * version does not know: its catalog entry.
 */
export function nodeOutputs(node: Pick<JobNode, 'type' | 'config'>, wiredBad = false): readonly OutputPort[] {
  if (!isNodeType(node.type)) return UNKNOWN.outputs;
  const deadLetter = (node.config as { onBadRecord?: unknown } | undefined)?.onBadRecord === 'dead-letter';
  return outputPorts(node.type).filter((p) => p !== 'bad' || deadLetter || wiredBad);
}

export function typeInfo(type: NodeType): NodeTypeInfo {
  return isNodeType(type) ? CATALOG[type] : UNKNOWN;
}

export function isNodeType(x: unknown): x is NodeType {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(CATALOG, x);
}

/** Palette entries matching a search, grouped in palette order; matches label, type and description. */
export function searchCatalog(query: string): Array<{ group: PaletteGroup; items: NodeTypeInfo[] }> {
  const q = query.trim().toLowerCase();
  const all = Object.values(CATALOG) as NodeTypeInfo[];
  const hits =
    q === ''
      ? all
      : all.filter(
          (i) =>
            i.label.toLowerCase().includes(q) ||
            i.type.includes(q) ||
            i.group.toLowerCase().includes(q) ||
            i.description.toLowerCase().includes(q),
        );
  return PALETTE_GROUPS.map((group) => ({ group, items: hits.filter((i) => i.group === group) })).filter(
    (g) => g.items.length > 0,
  );
}
