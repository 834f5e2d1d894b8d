/**
 * The inspector form of a node type, as data: each node type's definition lists its fields with
 * these descriptors and the renderer draws one generic form from them (Node-RED's `defaults` +
 * editor pair, Flink's `ConfigOption`s with descriptions). Browser-safe: no Node, no React.
 *
 * Rules every form follows, so descriptors stay short:
 * - `path` is the config path relative to `config`, dot-separated (`window.size`); the input's
 *   test id is `f-<path>` and the validator's message for `config.<path>` is shown under it.
 * - A cleared field removes its key from the config (the engine's default applies and the
 *   placeholder shows it), unless `empty` says which value a cleared field writes instead.
 * - `placeholder` of a field with a default comes from the type's `defaults` table, never a
 *   literal copied by hand.
 * - The label shown is `label`, followed by ` (unit)` when a `unit` is given.
 */

/** Config of any node type, as the form sees it (read-only). */
export type FieldConfig = Readonly<Record<string, unknown>>;

interface FieldBase<C> {
  /** Config path relative to `config`, dot-separated: `where`, `window.size`, `eventTime`. */
  path: string;
  label: string;
  /** One line under the field, shown while it has no error. */
  help?: string;
  placeholder?: string;
  /** Shown after the label in parentheses: `Rate (records/s)`. */
  unit?: string;
  /** The value a cleared field writes (`''` for a required text); absent = remove the key. */
  empty?: unknown;
  /** Shown only when this holds for the current config (e.g. `key` only in upsert mode). */
  when?(config: C): boolean;
}

/** Something a form shows that edits no config key of its own (a button, a note). */
interface Decoration<C> {
  /** None: a decoration edits no key (so `field.path` reads on every descriptor). */
  path?: undefined;
  when?(config: C): boolean;
}

export interface SelectOption {
  value: string;
  label: string;
}

/** Free text (paths, table names, signed durations such as `-5s`). */
export interface TextFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'text';
}
export interface NumberFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'number';
  integer?: boolean;
  min?: number;
}
export interface CheckFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'check';
}
export interface SelectFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'select';
  options: readonly SelectOption[];
  /** The label of "not set" when the key may be absent (`default (fail)`); absent = always set. */
  unset?: string;
}
/** A duration with its unit (`10s`, `500ms`): the duration widget. */
export interface DurationFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'duration';
}

/** What an expression field compiles as, for its squiggles and completions. */
export type ExpressionKind =
  | 'where'
  | 'select'
  | 'keyBy'
  | 'aggregates'
  | 'orderBy'
  /** A join's select list: `L.x`, `R.y`. */
  | 'joinSelect'
  /** A window join's select list: `L.x`, `R.y`, `window_start`, `window_end`. */
  | 'windowJoinSelect';

/** Which columns an expression field offers: the node's input, one side of a join, or both (L./R.). */
export type ExpressionColumns = 'input' | 'left' | 'right' | 'both';

/** A Flink SQL expression with squiggles and column completions. */
export interface ExpressionFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'expression';
  expression: ExpressionKind;
  columns: ExpressionColumns;
}

/** Declared columns: the text `name TYPE, …` edits `{ name: TYPE }` (absent type = STRING). */
export interface ColumnsFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'columns';
  /** Offer the columns the host samples from the source's data (file sources), with "declare them". */
  sampled?: boolean;
}

/** The `eventTime` group: a check box, then time column, max out-of-orderness and idle timeout. */
export interface EventTimeFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'eventTime';
  /** Columns offered when the node has no input (a source's own columns); absent = its input's. */
  columns?: readonly string[];
}

/**
 * A window spec (`{ kind, size | slide | gap }`) at `path`: a kind select labelled `label`, then
 * size, slide or gap; changing the kind keeps the length (size or gap). `optional` = the window
 * may be absent (topn: "per window"), with this label for "none".
 */
export interface WindowFieldDescriptor<C = FieldConfig> extends FieldBase<C> {
  kind: 'window';
  optional?: string;
  /** Label of the size field; default `Size`. */
  sizeLabel?: string;
}

/**
 * The "Test connection" button of a PostgreSQL node: connects with the config's `url`,
 * `passwordEnv` and `table` and shows the table's columns or why it failed.
 */
export interface TestConnectionFieldDescriptor<C = FieldConfig> extends Decoration<C> {
  kind: 'testConnection';
  /** Test id of the button (`pg-test`); its report uses `<testId>-error` / `<testId>-columns`. */
  testId: string;
}

/**
 * The "Test connection" button of a Kafka node: connects to the config's `bootstrap` and lists the
 * topics with their partition counts (a click names the topic); with a topic named, the columns its
 * records give, which "Declare these columns" writes to `columns`.
 */
export interface KafkaTestFieldDescriptor<C = FieldConfig> extends Decoration<C> {
  kind: 'kafkaTest';
  /** Test id of the button; its report uses `<testId>-error`, `<testId>-topics`, `<testId>-columns`. */
  testId: string;
}

/** The columns reaching the node's input, listed (sinks show what they will write). */
export interface InputColumnsFieldDescriptor<C = FieldConfig> extends Decoration<C> {
  kind: 'inputColumns';
}

/** A paragraph of explanation; its text may depend on the config (topn: deduplication or not). */
export interface NoteFieldDescriptor<C = FieldConfig> extends Decoration<C> {
  kind: 'note';
  text(config: C): string;
}

export type FieldDescriptor<C = FieldConfig> =
  | TextFieldDescriptor<C>
  | NumberFieldDescriptor<C>
  | CheckFieldDescriptor<C>
  | SelectFieldDescriptor<C>
  | DurationFieldDescriptor<C>
  | ExpressionFieldDescriptor<C>
  | ColumnsFieldDescriptor<C>
  | EventTimeFieldDescriptor<C>
  | WindowFieldDescriptor<C>
  | TestConnectionFieldDescriptor<C>
  | KafkaTestFieldDescriptor<C>
  | InputColumnsFieldDescriptor<C>
  | NoteFieldDescriptor<C>;

export type FieldKind = FieldDescriptor['kind'];

/** The label a form shows for a field: `label (unit)`. */
export function fieldLabel(f: { label?: string; unit?: string }): string {
  return f.unit ? `${f.label ?? ''} (${f.unit})` : (f.label ?? '');
}
