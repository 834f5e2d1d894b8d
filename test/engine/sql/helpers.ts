import { compileProjection, type Row } from '../../../engine/sql/index.ts';

/** Value of one expression for a row, NULL included (a `where` would fold NULL into false). */
export function value(expr: string, row: Row = {}): unknown {
  return compileProjection(`${expr} AS v`).project(row).v;
}
