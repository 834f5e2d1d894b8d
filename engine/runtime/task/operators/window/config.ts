/**
 * Reads a `window` node's config into what the operator runs with: the assigner, the allowed
 * lateness in ms, the key selector and the compiled aggregates. Bad config fails here, before any
 * record, with the JSON path of the field (`nodes[2].config.window.size: ...`).
 */
import type { JobNodeOf, NormalizedJob, DurationInput } from '../../../../graph/types.ts';
import { parseDuration } from '../../../../graph/units.ts';
import { parseKeyBy } from '../../../../sql/index.ts';
import type { Row } from '../../../../contracts/operator.ts';
import {
  tumblingWindows,
  slidingWindows,
  sessionWindows,
  type WindowAssigner,
} from '../../../../time/windows/index.ts';
import { compileWindowAggregates, type WindowAggregates } from './aggregates.ts';
import { operatorInputTypes } from '../../../common/input-types.ts';
import { inputIsChangelog } from '../../../../graph/changelog.ts';
import { window as windowNode } from '../../../../nodes/window/definition.ts';

export interface WindowKeySelector {
  /** Key columns in keyBy order (output column names); empty for a global window. */
  readonly columns: readonly string[];
  /** The key as a string: the one the runtime hashes to route a record to its key group. */
  keyOf(row: Row): string;
  /** The original key values, in `columns` order. */
  valuesOf(row: Row): unknown[];
  /** With one key column: its raw value (see KeyIndex); null otherwise. */
  readonly single: ((row: Row) => unknown) | null;
}

export interface WindowPlan {
  nodeId: string;
  assigner: WindowAssigner;
  allowedLateness: number;
  /** null = global window (no keyBy): one key, kept in key group 0 (the planner routes to subtask 0). */
  key: WindowKeySelector | null;
  aggregates: WindowAggregates;
  /** Too-late records go to the `late` port (an edge from it exists) instead of being dropped. */
  latePortWired: boolean;
  /** The input is a changelog: -U/-D rows retract (aggregates are the retracting ones). */
  changelog: boolean;
}

export class WindowConfigError extends Error {
  override name = 'WindowConfigError';
}

export function readWindowPlan(node: JobNodeOf<typeof windowNode.type>, job: NormalizedJob): WindowPlan {
  const index = job.nodes.findIndex((n) => n.id === node.id);
  const at = (field: string): string => `nodes[${index < 0 ? '?' : index}].config.${field}`;
  const attempt = <T>(field: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      throw new WindowConfigError(`${at(field)}: ${(err as Error).message}`);
    }
  };
  const duration = (field: string, value: DurationInput | undefined): number => {
    if (value === undefined) throw new WindowConfigError(`${at(field)}: required`);
    return attempt(field, () => parseDuration(value));
  };

  const cfg = node.config;
  const spec = cfg.window as WindowConfigSpec | undefined;
  if (!spec || typeof spec !== 'object') throw new WindowConfigError(`${at('window')}: required`);
  let assigner: WindowAssigner;
  switch (spec.kind) {
    case 'tumbling': {
      const size = duration('window.size', spec.size);
      assigner = attempt('window.size', () => tumblingWindows(size));
      break;
    }
    case 'sliding': {
      const size = duration('window.size', spec.size);
      const slide = duration('window.slide', spec.slide);
      assigner = attempt('window.slide', () => slidingWindows(size, slide));
      break;
    }
    case 'session': {
      const gap = duration('window.gap', spec.gap);
      assigner = attempt('window.gap', () => sessionWindows(gap));
      break;
    }
    default:
      throw new WindowConfigError(
        `${at('window.kind')}: expected 'tumbling', 'sliding' or 'session', got ${JSON.stringify(spec.kind)}`,
      );
  }
  const allowedLateness = cfg.allowedLateness === undefined ? 0 : duration('allowedLateness', cfg.allowedLateness);
  const keyText = cfg.keyBy?.trim();
  const key = keyText ? attempt('keyBy', () => parseKeyBy(keyText)) : null;
  if (typeof cfg.aggregates !== 'string' || cfg.aggregates.trim() === '') {
    throw new WindowConfigError(`${at('aggregates')}: expected an aggregate list such as 'COUNT(*) AS n'`);
  }
  const changelog = inputIsChangelog(job, node.id);
  if (changelog && assigner.kind === 'session') {
    throw new WindowConfigError(
      `${at('window.kind')}: session windows do not take a changelog input (retracting a row could split a merged session): use a tumbling or sliding window`,
    );
  }
  const aggregates = attempt('aggregates', () =>
    compileWindowAggregates(cfg.aggregates, operatorInputTypes(job, node.id), { changelog }),
  );
  // Output rows are window_start, window_end, the key columns, then the aggregates: one name each.
  const taken = new Set(['window_start', 'window_end', ...(key?.columns ?? [])]);
  for (const alias of aggregates.aliases) {
    if (taken.has(alias)) {
      throw new WindowConfigError(
        `${at('aggregates')}: the output column '${alias}' already exists (window_start, window_end and the keyBy columns come first): choose another alias`,
      );
    }
  }
  // Late changes of a changelog are dropped and counted: the late port carries no row kinds.
  const latePortWired = !changelog && job.edges.some((e) => e.from === node.id && e.fromPort === 'late');
  return { nodeId: node.id, assigner, allowedLateness, key, aggregates, latePortWired, changelog };
}

interface WindowConfigSpec {
  kind?: unknown;
  size?: DurationInput;
  slide?: DurationInput;
  gap?: DurationInput;
}
