/** The output-column rule the three joins share: keys of both sides and the L./R. select list. */
import { parseKeyBy } from '../sql/index.ts';
import { compileJoinSelect } from '../sql/join-select.ts';
import { attempt, checkKnown, type Columns, type ColumnsContext } from './columns.ts';

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
  if (lk && rk && lk.columns.length !== rk.columns.length) {
    ctx.error(
      ctx.path('rightKey'),
      `leftKey has ${lk.columns.length} column(s) but rightKey has ${rk.columns.length}: they are compared in order`,
    );
  }
  const sel = attempt(ctx, ctx.path('select'), () => compileJoinSelect(c.select, { windowColumns }));
  if (!sel) return null;
  const side = (s: 'L' | 'R') => sel.referenced.filter((r) => r.side === s).map((r) => r.column);
  checkKnown(ctx, ctx.path('select'), side('L'), left, 'L.');
  checkKnown(ctx, ctx.path('select'), side('R'), right, 'R.');
  return sel.columns;
}
