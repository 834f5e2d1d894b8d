/**
 * What one node type is, stated once (Arroyo's `Connector`, Flink's `Factory`): every browser-safe
 * fact about it, in one module per type under `engine/nodes/<type>/`. The validator, the palette,
 * the canvas and the inspector read these definitions through the registry
 * (`engine/graph/node-types.ts`) instead of keeping their own list per type.
 *
 * This layer sits below `engine/graph` (scripts/check-layers.mjs), so a definition imports only
 * `engine/nodes` (these shapes and the shared config pieces) and `engine/sql` / `engine/time`.
 */
import type { z } from 'zod';
import type { ColumnTypeMap, ColumnTypesContext } from './column-types.ts';
import type { NodeCheckContext } from './checks.ts';
import type { Columns, ColumnsContext } from './columns.ts';
import type { DurationFn } from './durations.ts';
import type { FieldDescriptor } from './fields.ts';
import type { RangeChecker } from './ranges.ts';
import type { InputPort, PortSpec } from './ports.ts';

export type { InputPort, OutputPort, PortSpec } from './ports.ts';

export type PaletteGroup = 'Sources' | 'Transforms' | 'Windows' | 'Sinks';
export const PALETTE_GROUPS: readonly PaletteGroup[] = ['Sources', 'Transforms', 'Windows', 'Sinks'];

export interface ChangelogRule<C> {
  /** Emits a changelog whatever its input (aggregate, an outer join, a CDC source). */
  produces?(config: C): boolean;
  /** Forwards its input's changelog unchanged (filter, map, union). */
  passes?: boolean;
  /** Takes a changelog input (retracting -U/-D rows); absent = only when it passes one. */
  accepts?(config: C): boolean;
  /** When it refuses one: how to make it take one (`at`: a config path), after a colon. */
  refusalHint?(config: C, at: (field: string) => string): string;
}

/** What the designer knows when it suggests columns (renderer/src/model/columns.ts). */
export interface CompletionContext {
  /** The columns reaching the node. */
  input(): string[];
  /** A file source's columns sampled from its data, when the designer has them. */
  sampled(): string[] | undefined;
  /** Columns an expression reads; [] when it does not parse. */
  referenced(kind: 'where', text: string): string[];
}

export interface EventTimeRule<C> {
  /** A source whose records carry event time (watermarks follow it). */
  has?(config: C): boolean;
  /** A source whose event time is none of its columns (Kafka's record timestamp): its field is not checked against them. */
  external?(config: C): boolean;
  /** A node that needs event time from every source upstream (windows, time-bounded joins). */
  needs?(config: C): boolean;
  /** Forwards its input's records with their event time (filter, map, union). */
  passes?: boolean;
}

/** What the palette and the canvas show for a type. */
export interface PaletteInfo<C> {
  label: string;
  group: PaletteGroup;
  description: string;
  /** Short id prefix for new nodes (`filter` -> `filter-2`). */
  idPrefix: string;
  /** The type's icon: an SVG path on a 24×24 grid, stroked. */
  icon: string;
  /** The config a node dropped from the palette starts with. */
  newConfig: () => C;
  /**
   * The one line a canvas node shows under its name (engine/nodes/text.ts helpers). Must never
   * throw: the config may be half-filled (its keys may be missing). Absent = nothing shown.
   */
  summary?(config: Partial<C>): string;
}

/** What a readColumns rule needs from the graph layer. */
export interface ReadColumnsContext {
  /** The output names of a select list (`*` stays `*`). */
  outputNames(list: string): string[];
}

export interface NodeDefinition<T extends string = string, C = unknown> {
  type: T;
  palette: PaletteInfo<C>;
  ports: PortSpec;
  /**
   * The config's zod schema (strict: an unknown key is an error); the job document's schema
   * (engine/graph/schema.ts) and the JSON Schema are assembled from these.
   */
  configSchema: z.ZodType<C>;
  /**
   * The value an absent optional config key means, read by the engine's config readers, the
   * forms' placeholders and the exporter alike (one table, never a literal copied by hand).
   */
  defaults: Readonly<Partial<C>>;
  /**
   * Whether its output is append-only or a changelog (Flink's +I/-U/+U/-D), read by the
   * validator (engine/graph/changelog.ts) and the planner. Absent = append-only in, append-only out.
   */
  changelog?: ChangelogRule<C>;
  /**
   * Keyed nodes: the key an input edge is hash-partitioned by (`port`: which side of a join);
   * absent or empty = not partitioned by key.
   */
  partitionKey?(config: C, port: InputPort | undefined): string | undefined;
  /** Keeps keyed state (gets a state backend; its input is routed by key group). */
  keyedState?: boolean;
  /**
   * The settings its checkpointed state depends on, stored in every checkpoint's layout
   * (engine/runtime/job/restore-layout.ts): a restore into a job where they differ is refused,
   * naming each. A stateful node's key, window spec or aggregates; a transactional sink's target
   * (file folder, table), where the pending transactions of the checkpoint commit. Absent = keeps
   * no state worth checking.
   */
  stateLayout?(config: C): Record<string, unknown>;
  /**
   * A copy of the config with `f` applied to every duration in it, `signed` to those that may be
   * negative (normalizing to ms and back); absent = the config has no durations.
   */
  mapDurations?(config: C, f: DurationFn, signed: DurationFn): C;
  /**
   * Its output-column rule (engine/nodes/columns.ts): checks the SQL in its config against its
   * inputs' columns and returns the columns it emits (null = unknown).
   */
  columns?(config: C, ctx: ColumnsContext): Columns;
  /**
   * The columns the inspector offers downstream of it, leniently (what its SQL names, even when
   * its input is unknown; the config may be half-filled). Absent = its input's columns.
   */
  completionColumns?(config: Partial<C>, ctx: CompletionContext): string[];
  /** The static types of the columns it emits (engine/nodes/column-types.ts); absent = none known. */
  columnTypes?(config: C, ctx: ColumnTypesContext): ColumnTypeMap;
  /** Its own static checks (engine/nodes/checks.ts): what the schema cannot say about its config. */
  check?(config: C, ctx: NodeCheckContext): void;
  /** Its bounds the schema cannot express (engine/nodes/ranges.ts). */
  checkRanges?(config: C, r: RangeChecker): void;
  /** The SQL texts in its config (conditions, select lists, keys), e.g. to find the names a job uses. */
  expressions?(config: C): string[];
  /** Event time: whether a source's records carry it, whether a node needs it upstream. */
  eventTime?: EventTimeRule<C>;
  /**
   * Sources: the columns they emit when known before reading any data (the generator's fixed
   * columns, declared columns); null = known only from the data. Nexmark's are per port.
   */
  sourceColumns?(config: C): readonly string[] | null;
  /**
   * The local file or folder its config names (`key`), and whether the run reads or writes it:
   * the run's path checks and the desktop host's workspace confinement read this.
   */
  localFile?: { key: keyof C & string; access: 'read' | 'write' };
  /**
   * Nodes with a `bad` port: the config setting that sends bad records there (`key` set to
   * `value`); read by the validator's dead-letter rules and the canvas's connection check.
   */
  deadLetters?: { key: keyof C & string; value: string };
  /**
   * Config keys that name an environment variable the engine reads (a password): the desktop
   * host refuses a job naming one the user did not allow.
   */
  envKeys?: readonly (keyof C & string)[];
  /**
   * A sink committing at checkpoints (two-phase commit): what its pending output is counted in
   * (`pendingUnit`, e.g. 'file(s)'), shown by the live panel's pending-sinks view.
   */
  transactional?: { pendingUnit: string };
  /**
   * Its durations that must be greater than 0 (relative config path, value as written), checked
   * by the validator before normalizing; absent = none.
   */
  positiveDurations?(config: C): [path: string, value: number | string | undefined][];
  /**
   * The config key of an aggregate list whose DOUBLE SUM / AVG Weir adds exactly, unlike Flink:
   * engine/graph/semantics-warnings.ts warns there. Absent = no such warning.
   */
  doubleSums?: keyof C & string;
  /**
   * Projection pushdown (engine/graph/read-columns.ts), for a node receiving a source's rows: the
   * input columns it reads, and whether it passes the rows on unchanged through `out` (then what
   * its receivers read counts too). null or absent = it needs whole rows, as does every node with
   * a connected port other than `out` (a window's `late` sends whole rows).
   */
  readColumns?(config: C, ctx: ReadColumnsContext): { columns: string[]; passes: boolean } | null;
  /**
   * A source able to decode only the columns read downstream: the columns it needs itself (its
   * event-time field). Absent = it always builds whole rows.
   */
  projection?(config: C): string[];
  /** The inspector form (engine/nodes/fields.ts). */
  fields: readonly FieldDescriptor<C>[];
}

/** A definition, typed by its own config; `satisfies`-friendly. */
export function defineNode<T extends string, C>(d: NodeDefinition<T, C>): NodeDefinition<T, C> {
  return d;
}

/** The config type of a definition. */
export type ConfigOf<D> = D extends NodeDefinition<string, infer C> ? C : never;

// ---- compile-time proofs that a config schema and its interface agree ----
// Mutual assignability catches wrong types and missing required fields; optional keys are
// assignable either way, so the key sets are compared exactly as well.
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Assert<T extends true> = T;
/** `true` when schema S parses exactly the objects of type C (same types, same keys). */
export type SchemaMatches<S extends z.ZodType, C> =
  Same<z.infer<S>, C> extends true ? Eq<keyof z.infer<S>, keyof C> : false;
