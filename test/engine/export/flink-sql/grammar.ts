/** The real Flink SQL grammar the exported scripts are checked against (dt-sql-parser's FlinkSQL). */
import { FlinkSQL } from 'dt-sql-parser';

const flink = new FlinkSQL();

export interface SyntaxProblem {
  line: number;
  column: number;
  message: string;
}

export function flinkSyntaxErrors(sql: string): SyntaxProblem[] {
  return flink.validate(sql).map((e) => ({ line: e.startLine, column: e.startColumn, message: e.message }));
}

/** Readable failure text: each error with the offending line of the script. */
export function describeSyntaxErrors(sql: string, errors: SyntaxProblem[]): string {
  const lines = sql.split('\n');
  return errors.map((e) => `line ${e.line}:${e.column} ${e.message}\n    ${lines[e.line - 1] ?? ''}`).join('\n');
}
