/**
 * Flink's JSON functions with their default clauses: JSON_VALUE (NULL ON EMPTY, NULL ON ERROR,
 * RETURNING STRING), JSON_QUERY (WITHOUT ARRAY WRAPPER, NULL ON EMPTY / ERROR), JSON_EXISTS (FALSE
 * ON ERROR), JSON_STRING, JSON_OBJECT (NULL ON NULL), JSON_ARRAY (ABSENT ON NULL), JSON_QUOTE and
 * JSON_UNQUOTE. The other clauses (RETURNING, DEFAULT ... ON EMPTY, WITH WRAPPER, ON NULL) are
 * refused when the text is parsed (special-forms.ts), as is a JSON constructor nested in another
 * (Flink inserts it as JSON, not as a string).
 *
 * Paths are SQL/JSON paths as Calcite reads them: an optional `lax` (default) or `strict` mode,
 * `$`, then `.key`, `['key']`, `["key"]`, `[n]`, `[*]` and `.*`. In lax mode a missing key is
 * empty; in strict mode it is an error (so NULL, or FALSE for JSON_EXISTS). Results are written
 * compactly, as Flink's Jackson writes them.
 */
import type { FunctionSpec, SqlType } from './types.ts';
import { Decimal } from './decimal.ts';
import { cached, strict, text } from './function-args.ts';

type Step = { key: string } | { index: number } | { all: true };
interface JsonPath {
  strict: boolean;
  steps: Step[];
}

function parsePath(path: string): JsonPath | null {
  const m = /^\s*(?:(lax|strict)\s+)?\$(.*)$/is.exec(path);
  if (!m) return null;
  const steps: Step[] = [];
  let rest = m[2].trim();
  while (rest.length > 0) {
    let step: RegExpExecArray | null;
    if ((step = /^\.\*/.exec(rest)) || (step = /^\[\*\]/.exec(rest))) steps.push({ all: true });
    else if ((step = /^\.?\[\s*'([^']*)'\s*\]/.exec(rest)) || (step = /^\.?\[\s*"([^"]*)"\s*\]/.exec(rest)))
      steps.push({ key: step[1] });
    else if ((step = /^\[\s*(\d+)\s*\]/.exec(rest))) steps.push({ index: Number(step[1]) });
    else if ((step = /^\.([\p{L}_$][\p{L}\p{N}_$]*)/u.exec(rest))) steps.push({ key: step[1] });
    else return null;
    rest = rest.slice(step[0].length).trim();
  }
  return { strict: (m[1] ?? 'lax').toLowerCase() === 'strict', steps };
}

const pathFor = cached(parsePath);

type Found = { ok: true; values: unknown[]; wildcard: boolean } | { ok: false };

/** The values the path selects, or an error (bad JSON, bad path, a strict-mode miss). */
function evaluate(json: string, path: string): Found {
  const p = pathFor(path);
  if (p === null) return { ok: false };
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    return { ok: false };
  }
  let current: unknown[] = [doc];
  let wildcard = false;
  for (const step of p.steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('all' in step) {
        wildcard = true;
        if (Array.isArray(v)) next.push(...v);
        else if (v !== null && typeof v === 'object') next.push(...Object.values(v));
        else if (p.strict) return { ok: false };
      } else if ('index' in step) {
        if (Array.isArray(v) && step.index < v.length) next.push(v[step.index]);
        else if (p.strict) return { ok: false };
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, step.key)) {
        next.push((v as Record<string, unknown>)[step.key]);
      } else if (p.strict) return { ok: false };
    }
    current = next;
  }
  return { ok: true, values: current, wildcard };
}

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/** A scalar as JSON_VALUE returns it: strings unquoted, numbers and booleans as their text. */
const scalarText = (v: unknown): string | null => (v === null ? null : typeof v === 'string' ? v : String(v));

/** A Weir value as a JSON value (Jackson's form: a whole DOUBLE keeps its `.0`). */
function toJson(v: unknown, type: SqlType): string {
  if (v instanceof Decimal) return v.toString();
  if (typeof v === 'number' && type === 'DOUBLE' && Number.isInteger(v)) return `${v}.0`;
  return JSON.stringify(v);
}

export const JSON_FUNCTIONS: Record<string, FunctionSpec> = {
  JSON_VALUE: strict(
    {
      min: 2,
      max: 2,
      params: ['STRING', 'STRING'],
      signature: 'JSON_VALUE(json STRING, path STRING) → STRING',
      type: 'STRING',
    },
    ([json, path]) => {
      const r = evaluate(text(json)!, text(path)!);
      if (!r.ok || r.values.length !== 1 || r.wildcard) return null;
      return isScalar(r.values[0]) ? scalarText(r.values[0]) : null;
    },
  ),
  JSON_QUERY: strict(
    {
      min: 2,
      max: 2,
      params: ['STRING', 'STRING'],
      signature: 'JSON_QUERY(json STRING, path STRING) → STRING',
      type: 'STRING',
    },
    ([json, path]) => {
      const r = evaluate(text(json)!, text(path)!);
      if (!r.ok || r.values.length === 0) return null;
      // A wildcard's matches come as one array (Calcite's lax mode); a scalar needs a wrapper.
      const v = r.wildcard ? r.values : r.values[0];
      return isScalar(v) ? null : JSON.stringify(v);
    },
  ),
  JSON_EXISTS: {
    min: 2,
    max: 2,
    params: ['STRING', 'STRING'],
    signature: 'JSON_EXISTS(json STRING, path STRING) → BOOLEAN',
    build: ([j, p]) => {
      const jf = j.fn,
        pf = p.fn;
      return {
        fn: (row) => {
          const json = text(jf(row)),
            path = text(pf(row));
          if (json === null || path === null) return null;
          const r = evaluate(json, path);
          return r.ok && r.values.length > 0; // FALSE ON ERROR
        },
        type: 'BOOLEAN',
      };
    },
  },
  JSON_STRING: {
    min: 1,
    max: 1,
    params: ['ANY'],
    signature: 'JSON_STRING(value) → STRING',
    build: ([a]) => {
      const f = a.fn;
      return {
        fn: (row) => {
          const v = f(row);
          return v === null || v === undefined ? null : toJson(v, a.type);
        },
        type: 'STRING',
      };
    },
  },
  JSON_OBJECT: {
    min: 0,
    max: Infinity,
    params: ['STRING', 'ANY'],
    signature: "JSON_OBJECT(KEY 'k' VALUE v, ...) → STRING",
    check: (args) =>
      args.length % 2 !== 0
        ? 'expects KEY ... VALUE ... pairs'
        : args.some((a, i) => i % 2 === 0 && !(a.constant && typeof a.fn({}) === 'string'))
          ? 'the keys must be string literals'
          : null,
    build: (args) => {
      const keys = args.filter((_, i) => i % 2 === 0).map((k) => k.fn({}) as string);
      const values = args.filter((_, i) => i % 2 === 1);
      return {
        fn: (row) => {
          const parts = keys.map((k, i) => {
            const v = values[i].fn(row);
            return `${JSON.stringify(k)}:${v === null || v === undefined ? 'null' : toJson(v, values[i].type)}`;
          });
          return `{${parts.join(',')}}`;
        },
        type: 'STRING',
      };
    },
  },
  JSON_ARRAY: {
    min: 0,
    max: Infinity,
    params: ['ANY'],
    signature: 'JSON_ARRAY(value, ...) → STRING',
    build: (args) => ({
      fn: (row) => {
        const parts: string[] = [];
        for (const a of args) {
          const v = a.fn(row);
          if (v !== null && v !== undefined) parts.push(toJson(v, a.type)); // ABSENT ON NULL
        }
        return `[${parts.join(',')}]`;
      },
      type: 'STRING',
    }),
  },
  IS_JSON: {
    min: 2,
    max: 2,
    params: ['STRING', 'STRING'],
    signature: 's IS JSON [VALUE | SCALAR | ARRAY | OBJECT] → BOOLEAN (IS NOT JSON negates it)',
    // The parser writes `s IS JSON OBJECT` as IS_JSON(s, 'OBJECT'); NULL is not JSON (FALSE).
    build: ([a, t]) => {
      const af = a.fn,
        type = String(t.fn({}));
      return {
        fn: (row) => {
          const v = af(row);
          if (typeof v !== 'string') return false;
          let doc: unknown;
          try {
            doc = JSON.parse(v);
          } catch {
            return false;
          }
          const isArray = Array.isArray(doc),
            isObject = doc !== null && typeof doc === 'object' && !isArray;
          return type === 'ARRAY'
            ? isArray
            : type === 'OBJECT'
              ? isObject
              : type === 'SCALAR'
                ? !isArray && !isObject
                : true;
        },
        type: 'BOOLEAN',
      };
    },
  },
  JSON_QUOTE: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'JSON_QUOTE(s STRING) → STRING', type: 'STRING' },
    ([v]) => JSON.stringify(text(v)!).replace(/\//g, '\\/'),
  ),
  JSON_UNQUOTE: strict(
    { min: 1, max: 1, params: ['STRING'], signature: 'JSON_UNQUOTE(s STRING) → STRING', type: 'STRING' },
    // Not a JSON string literal: returned unchanged.
    ([v]) => {
      const s = text(v)!;
      if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) return s;
      try {
        const out: unknown = JSON.parse(s);
        return typeof out === 'string' ? out : s;
      } catch {
        return s;
      }
    },
  ),
};
