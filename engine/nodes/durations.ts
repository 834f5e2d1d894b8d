/**
 * Rewriting the durations inside a config: normalizing turns them into milliseconds, denormalizing
 * back into readable strings (engine/graph/normalize.ts). Each definition's `mapDurations` says
 * where its durations are; these are the shared pieces.
 */
import type { DurationInput, EventTimeConfig, WindowSpec } from './config.ts';

/** What normalizing (to ms) or denormalizing (to `5s`) does to one duration. */
export type DurationFn = (d: DurationInput) => DurationInput;

export function mapEventTime(et: EventTimeConfig | undefined, f: DurationFn): EventTimeConfig | undefined {
  if (!et) return undefined;
  return {
    ...et,
    ...(et.maxOutOfOrderness !== undefined ? { maxOutOfOrderness: f(et.maxOutOfOrderness) } : {}),
    ...(et.idleTimeout !== undefined ? { idleTimeout: f(et.idleTimeout) } : {}),
  };
}

export function mapWindow(w: WindowSpec, f: DurationFn): WindowSpec {
  return w.kind === 'tumbling'
    ? { kind: w.kind, size: f(w.size) }
    : w.kind === 'sliding'
      ? { kind: w.kind, size: f(w.size), slide: f(w.slide) }
      : { kind: w.kind, gap: f(w.gap) };
}

/** `c` with `f` applied to its optional duration `key`, when set. */
export function mapOptional<C, K extends keyof C>(c: C, key: K, f: DurationFn): C {
  const v = c[key];
  return v === undefined ? { ...c } : { ...c, [key]: f(v as DurationInput) };
}
