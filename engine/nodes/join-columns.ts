/** The output-column rule the three joins share: keys of both sides and the L./R. select list. */
import { ExpressionError, flinkTypeName, parseKeyBy, type ColumnType } from '../sql/index.ts';
import { compileJoinSelect } from '../sql/join-select.ts';
import { attempt, checkKnown, type Columns, type ColumnsContext } from './columns.ts';
import type { ColumnTypeMap } from './column-types.ts';

const NUMBERS = new Set(['BIGINT', 'DOUBLE', 'DECIMAL']);

/** Flink compares numbers with numbers and any other type only with itself; UNKNOWN with anything. */
function keysComparable(l: ColumnType | undefined, r: ColumnType | undefined): boolean {
  if (!l || !r || l.type === 'UNKNOWN' || r.type === 'UNKNOWN') return true;
  return l.type === r.type || (NUMBERS.has(l.type) && NUMBERS.has(r.type));
}

/** Each pair of key columns must compare (the equi-join condition `L.k = R.k`), as Flink checks it. */
function checkKeyTypes(
  ctx: ColumnsContext,
  lk: readonly string[],
  rk: readonly string[],
  lt: ColumnTypeMap,
  rt: ColumnTypeMap,
): void {
  for (let i = 0; i < Math.min(lk.length, rk.length); i++) {
    const l = lt.get(lk[i]),
      r = rt.get(rk[i]);
    if (keysComparable(l, r)) continue;
    ctx.error(
      ctx.path('rightKey'),
      `Cannot apply '=' to arguments of type '<${flinkTypeName(l!)}> = <${flinkTypeName(r!)}>': the join compares L.${lk[i]} with R.${rk[i]}`,
    );
  }
}

/** A column named without L./R.: ambiguous when both inputs have it. */
function ambiguity(e: unknown, left: Columns, right: Columns): ExpressionError | null {
  if (!(e instanceof ExpressionError)) return null;
  const m = /^column '(.+)' needs an input prefix/.exec(e.message);
  if (!m || !left?.includes(m[1]) || !right?.includes(m[1])) return null;
  const c = m[1];
  return new ExpressionError(`ambiguous column '${c}': both inputs have it; write L.${c} or R.${c}`, e.column);
}

export interface JoinKeysAndSelect {
  leftKey: string;
  rightKey: string;
  select: string;
}

/** `windowColumns`: the select list may name window_start and window_end (a window join). */
export function joinColumns(c: JoinKeysAndSelect, ctx: ColumnsContext, windowColumns: boolean): Columns {
  const left = ctx.inputs.find((i) => i.port === 'left')?.columns ?? null;
  const right = ctx.inputs.find((i) => i.port === 'right')?.columns ?? null;
  const lk = attempt(ctx, ctx.path('leftKey'), () => parseKeyBy(c.leftKey));
  const rk = attempt(ctx, ctx.path('rightKey'), () => parseKeyBy(c.rightKey));
  if (lk) checkKnown(ctx, ctx.path('leftKey'), lk.columns, left);
  if (rk) checkKnown(ctx, ctx.path('rightKey'), rk.columns, right);
  const types = (port: 'left' | 'right') => ctx.inputs.find((i) => i.port === port)?.types ?? new Map();
  if (lk && rk) checkKeyTypes(ctx, lk.columns, rk.columns, types('left'), types('right'));
  if (lk && rk && lk.columns.length !== rk.columns.length) {
    ctx.error(
      ctx.path('rightKey'),
      `leftKey has ${lk.columns.length} column(s) but rightKey has ${rk.columns.length}: they are compared in order`,
    );
  }
  const sel = attempt(ctx, ctx.path('select'), () => {
    try {
      return compileJoinSelect(c.select, { windowColumns, types: { left: types('left'), right: types('right') } });
    } catch (e) {
      throw ambiguity(e, left, right) ?? e;
    }
  });
  if (!sel) return null;
  const side = (s: 'L' | 'R') => sel.referenced.filter((r) => r.side === s).map((r) => r.column);
  checkKnown(ctx, ctx.path('select'), side('L'), left, 'L.');
  checkKnown(ctx, ctx.path('select'), side('R'), right, 'R.');
  return sel.columns;
}
