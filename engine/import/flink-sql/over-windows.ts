/**
 * OVER aggregations (`SUM(x) OVER (PARTITION BY ... ORDER BY ...)`) have no Weir node, and
 * dt-sql-parser's FlinkSQL grammar reads them as a cascade of syntax errors across the rest of the
 * statement (valid SQL after it, such as CAST(NULL AS TIMESTAMP(3)), included). The importer says
 * it once instead: one error at each OVER, and the statement's syntax errors dropped. An OVER the
 * grammar does read (`... OVER (...) AS total`) gets the same error from views.ts.
 */
/** The one error of a statement with an OVER aggregation (the CLI writes nothing on it: import-command.ts). */
export const OVER_UNSUPPORTED =
  'OVER aggregations have no Weir node (this statement was left out): use a window node (tumbling, sliding, session) or an aggregate';

/** A problem at a 1-based place (statements.ts's ScriptProblem, which takes these as they are). */
interface ScriptProblem {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

interface Span {
  start: number;
  end: number;
}

/** Offset -> 1-based line and column. */
function place(sql: string, offset: number): { line: number; column: number } {
  const before = sql.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The statements holding `OVER (`, by offsets (a statement ends at the next `;`). */
function overSpans(sql: string): Array<Span & { at: number }> {
  const out: Array<Span & { at: number }> = [];
  const re = /\bOVER\s*\(/gi;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const start = sql.lastIndexOf(';', m.index) + 1;
    const semi = sql.indexOf(';', m.index);
    out.push({ start, end: semi < 0 ? sql.length : semi + 1, at: m.index });
  }
  return out;
}

/**
 * The statements holding an OVER that the grammar failed on (a syntax error inside; a Top-N's
 * `ROW_NUMBER() OVER (...)` parses and is left alone), with one error each at the OVER, and the
 * test for whether a place (1-based line and column) falls inside one of them.
 */
export function overFailures(
  sql: string,
  syntaxErrors: ScriptProblem[],
): { inside: (p: { line: number; column: number }) => boolean; problems: ScriptProblem[] } {
  const lineStarts = [0];
  for (let i = 0; i < sql.length; i++) if (sql[i] === '\n') lineStarts.push(i + 1);
  const offsetOf = (p: { line: number; column: number }) => (lineStarts[p.line - 1] ?? 0) + p.column - 1;
  const within = (s: Span, p: { line: number; column: number }) => offsetOf(p) >= s.start && offsetOf(p) <= s.end;
  const seen = new Set<number>();
  const failed = overSpans(sql).filter((s) => {
    if (seen.has(s.start) || !syntaxErrors.some((p) => within(s, p))) return false;
    seen.add(s.start);
    return true;
  });
  const inside = (p: { line: number; column: number }) => failed.some((s) => within(s, p));
  const problems = [
    ...failed.map((s) => ({
      ...place(sql, s.at),
      severity: 'error' as const,
      message: OVER_UNSUPPORTED,
    })),
    ...syntaxErrors.filter((p) => !inside(p)),
  ].sort((a, b) => a.line - b.line || a.column - b.column);
  return { inside, problems };
}
