/**
 * `agg(x) FILTER (WHERE c)` spelled as `agg(CASE WHEN c THEN x END)` (`COUNT(*)`: `THEN 1`): the
 * same result, since every aggregate ignores NULL inputs. Flink's own parser (Calcite) reads FILTER,
 * but SQL tooling such as dt-sql-parser's Flink grammar (used to check this export) does not, and
 * CASE WHEN reads the same everywhere.
 */
import { extractAggregateFilters } from '../../sql/aggregate-filters.ts';

export function filtersAsCase(text: string): string {
  const { text: bare, filters } = extractAggregateFilters(text);
  if (filters.length === 0) return text;
  let out = bare;
  // Right to left, so earlier offsets stay valid.
  for (const f of [...filters].reverse()) {
    // The call the clause follows: the last ')' before it closes the argument list.
    const close = bare.lastIndexOf(')', f.start);
    let depth = 0;
    let open = close;
    for (; open >= 0; open--) {
      if (bare[open] === ')') depth++;
      else if (bare[open] === '(' && --depth === 0) break;
    }
    const arg = bare.slice(open + 1, close).trim();
    const distinct = /^DISTINCT\s+/i.exec(arg);
    const value = arg === '*' ? '1' : distinct ? arg.slice(distinct[0].length) : arg;
    const replaced = `${distinct ? 'DISTINCT ' : ''}CASE WHEN ${f.where} THEN ${value} END`;
    out = out.slice(0, open + 1) + replaced + out.slice(close, f.start).trimEnd() + out.slice(f.end);
  }
  return out;
}
