/**
 * Config pieces several node types share: durations, record formats, event time, window specs.
 * Part of the `weir.job/v1` contract (engine/graph/types.ts re-exports them): never renamed.
 */
import type { SelectOption } from './fields.ts';

/** A duration: a number of milliseconds or a string with a unit (`ms`, `s`, `m`, `h`, `d`). */
export type DurationInput = number | string;
/** A size: a number of bytes or a string with a unit (`b`, `kb`, `mb`, `gb`). */
export type SizeInput = number | string;

export type RecordFormat = 'jsonl' | 'csv';

export const RECORD_FORMAT_OPTIONS: readonly SelectOption[] = [
  { value: 'jsonl', label: 'JSON lines' },
  { value: 'csv', label: 'CSV (header row)' },
];

export interface EventTimeConfig {
  /** Column holding epoch milliseconds or an ISO-8601 string. */
  field: string;
  maxOutOfOrderness?: DurationInput;
  idleTimeout?: DurationInput;
}

export type WindowSpec =
  | { kind: 'tumbling'; size: DurationInput }
  | { kind: 'sliding'; size: DurationInput; slide: DurationInput }
  | { kind: 'session'; gap: DurationInput };

/**
 * What the engine uses for an `eventTime` part left out: no delay, and no idleness (`null`: a
 * silent input holds the watermark back for ever). The inspector shows them as placeholders.
 */
export const EVENT_TIME_DEFAULTS: { maxOutOfOrderness: number; idleTimeout: number | null } = {
  maxOutOfOrderness: 0,
  idleTimeout: null,
};

/** The window of each kind a new node or a kind switch starts with (palette, inspector). */
export const NEW_WINDOW: { readonly [K in WindowSpec['kind']]: Extract<WindowSpec, { kind: K }> } = {
  tumbling: { kind: 'tumbling', size: '10s' },
  sliding: { kind: 'sliding', size: '10s', slide: '5s' },
  session: { kind: 'session', gap: '10s' },
};
