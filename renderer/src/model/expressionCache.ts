/**
 * The engine's expression checker with a memory: compiling SQL is the slow part of validateJob
 * (about 0.7 ms per expression), and between two edits almost every expression is unchanged. Results are
 * cached by kind and text, so re-validating a 200-node job after a keystroke compiles one
 * expression, not 200.
 *
 * `validationCache` keeps the typed checks per node the same way (engine/graph/validation-cache.ts):
 * the validator and the edge schemas share it, so a keystroke re-types the edited node and what
 * its change reaches downstream.
 */
import { typesKey, type ExpressionChecker } from '../../../engine/graph/expressions.ts';
import { sqlExpressionChecker } from '../../../engine/graph/validate.ts';
import { createValidationCache } from '../../../engine/graph/validation-cache.ts';

const { checkExpression, referencedColumns, outputColumns } = sqlExpressionChecker;

const MAX_ENTRIES = 5000;

function memo<A extends unknown[], R>(fn: (...args: A) => R, key: (...args: A) => string): (...args: A) => R {
  const cache = new Map<string, { ok: true; v: R } | { ok: false; e: unknown }>();
  return (...args: A) => {
    const k = key(...args);
    let hit = cache.get(k);
    if (!hit) {
      try {
        hit = { ok: true, v: fn(...args) };
      } catch (e) {
        hit = { ok: false, e };
      }
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(k, hit);
    }
    if (!hit.ok) throw hit.e;
    return hit.v;
  };
}

export const cachedExpressions: ExpressionChecker = {
  checkExpression: memo(checkExpression, (kind, text, types) => `${kind}\u0000${text}\u0000${typesKey(types)}`),
  referencedColumns: memo(referencedColumns, (kind, text) => `${kind}\u0000${text}`),
  outputColumns: memo(
    outputColumns,
    (kind, text, input) => `${kind}\u0000${text}\u0000${input === null ? '\u0001' : input.join('\u0000')}`,
  ),
};

/** Per-node typed checks, for the one expression checker above. */
export const validationCache = createValidationCache();
