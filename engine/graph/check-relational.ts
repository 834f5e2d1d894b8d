/**
 * Column checks of the relational nodes (join, join.interval, join.window, aggregate, topn): their SQL fragments
 * parse, read columns that exist upstream (when known), and the columns they emit. Called by
 * check-columns.ts in topological order. Browser-safe.
 *
 * Output columns: a join emits its select list; aggregate its key columns then the aggregate
 * aliases; topn its input columns plus `rownum` (the row's rank within its partition, 1..limit).
 */
import type { JobNode, JobProblem, WindowSpec } from './types.ts';
import { ExpressionError, compileAggregates, parseKeyBy, referencedColumns } from '../sql/index.ts';
import { compileJoinSelect } from '../sql/join-select.ts';
import { compileOrderBy } from '../sql/order-by.ts';
import { checkSignedDuration } from './signed-duration.ts';
import { checkDuration } from './units.ts';

export type Columns = readonly string[] | null;
export const TOPN_RANK_COLUMN = 'rownum';

export interface RelationalInput {
  port: 'left' | 'right' | undefined;
  columns: Columns;
}

const err = (path: string, message: string, nodeId: string): JobProblem => ({
  path,
  message,
  severity: 'error',
  nodeId,
});

function attempt<T>(problems: JobProblem[], path: string, nodeId: string, f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    problems.push(err(path, e.message, nodeId));
    return null;
  }
}

function unknown(
  problems: JobProblem[],
  path: string,
  nodeId: string,
  cols: readonly string[],
  known: Columns,
  prefix = '',
): void {
  if (!known || known.includes('*')) return;
  for (const c of new Set(cols)) {
    if (!known.includes(c))
      problems.push(
        err(path, `unknown column '${prefix}${c}' (known: ${known.map((k) => prefix + k).join(', ')})`, nodeId),
      );
  }
}

/** Tumbling, sliding or session with positive durations (a sliding window's slide at most its size). */
function checkWindow(w: WindowSpec, at: (field: string) => string, id: string, problems: JobProblem[]): void {
  if (w.kind === 'session') {
    const gap = checkDuration(w.gap);
    if (gap.ok && gap.value <= 0) problems.push(err(at('gap'), 'must be greater than 0', id));
    return;
  }
  const sizes: Array<[string, unknown]> = [
    ['size', w.size],
    ...(w.kind === 'sliding' ? [['slide', w.slide] as [string, unknown]] : []),
  ];
  for (const [f, v] of sizes) {
    const d = checkDuration(v);
    if (d.ok && d.value <= 0) problems.push(err(at(f), 'must be greater than 0', id));
  }
  if (w.kind === 'sliding') {
    const size = checkDuration(w.size),
      slide = checkDuration(w.slide);
    if (size.ok && slide.ok && slide.value > size.value)
      problems.push(err(at('slide'), `slide (${slide.value} ms) must not be larger than size (${size.value} ms)`, id));
  }
}

type JoinNode = Extract<JobNode, { type: 'join' | 'join.interval' | 'join.window' }>;

/** Keys of both sides and the L./R. select list of a two-input node. */
function joinColumns(
  node: JoinNode,
  index: number,
  inputs: RelationalInput[],
  problems: JobProblem[],
  windowColumns: boolean,
): Columns {
  const at = (f: string) => `nodes[${index}].config.${f}`;
  const id = node.id;
  const c = node.config;
  const left = inputs.find((i) => i.port === 'left')?.columns ?? null;
  const right = inputs.find((i) => i.port === 'right')?.columns ?? null;
  const lk = attempt(problems, at('leftKey'), id, () => parseKeyBy(c.leftKey));
  const rk = attempt(problems, at('rightKey'), id, () => parseKeyBy(c.rightKey));
  if (lk) unknown(problems, at('leftKey'), id, lk.columns, left);
  if (rk) unknown(problems, at('rightKey'), id, rk.columns, right);
  if (lk && rk && lk.columns.length !== rk.columns.length) {
    problems.push(
      err(
        at('rightKey'),
        `leftKey has ${lk.columns.length} column(s) but rightKey has ${rk.columns.length}: they are compared in order`,
        id,
      ),
    );
  }
  const sel = attempt(problems, at('select'), id, () => compileJoinSelect(c.select, { windowColumns }));
  if (!sel) return null;
  unknown(
    problems,
    at('select'),
    id,
    sel.referenced.filter((r) => r.side === 'L').map((r) => r.column),
    left,
    'L.',
  );
  unknown(
    problems,
    at('select'),
    id,
    sel.referenced.filter((r) => r.side === 'R').map((r) => r.column),
    right,
    'R.',
  );
  return sel.columns;
}

/** Output columns of a relational node, or undefined when `node` is not one. */
export function relationalColumns(
  node: JobNode,
  index: number,
  inputs: RelationalInput[],
  problems: JobProblem[],
): Columns | undefined {
  const at = (f: string) => `nodes[${index}].config.${f}`;
  const id = node.id;
  switch (node.type) {
    case 'join.interval': {
      const c = node.config;
      const lo = checkSignedDuration(c.lower),
        hi = checkSignedDuration(c.upper);
      if (lo.ok && hi.ok && lo.value > hi.value) {
        problems.push(
          err(at('lower'), `lower (${lo.value} ms) is greater than upper (${hi.value} ms): no row could ever join`, id),
        );
      }
      return joinColumns(node, index, inputs, problems, false);
    }
    case 'join':
      return joinColumns(node, index, inputs, problems, false);
    case 'join.window':
      checkWindow(node.config.window, (f) => at(`window.${f}`), id, problems);
      return joinColumns(node, index, inputs, problems, true);
    case 'aggregate': {
      const c = node.config;
      const input = inputs[0]?.columns ?? null;
      const keys = attempt(problems, at('keyBy'), id, () => parseKeyBy(c.keyBy));
      if (keys) unknown(problems, at('keyBy'), id, keys.columns, input);
      const aggs = attempt(problems, at('aggregates'), id, () => compileAggregates(c.aggregates));
      if (aggs) {
        unknown(problems, at('aggregates'), id, referencedColumns('aggregates', c.aggregates), input);
      }
      if (!keys || !aggs) return null;
      const clash = aggs.find((a) => keys.columns.includes(a.alias));
      if (clash)
        problems.push(
          err(at('aggregates'), `output column '${clash.alias}' is already a key column: choose another alias`, id),
        );
      return [...keys.columns, ...aggs.map((a) => a.alias)];
    }
    case 'topn': {
      const c = node.config;
      const input = inputs[0]?.columns ?? null;
      const keys = attempt(problems, at('partitionBy'), id, () => parseKeyBy(c.partitionBy));
      if (keys) unknown(problems, at('partitionBy'), id, keys.columns, input);
      const order = attempt(problems, at('orderBy'), id, () => compileOrderBy(c.orderBy));
      if (order) unknown(problems, at('orderBy'), id, order.columns, input);
      if (input && input.includes(TOPN_RANK_COLUMN)) {
        problems.push(
          err(
            `nodes[${index}]`,
            `the input of topn '${id}' already has a column '${TOPN_RANK_COLUMN}' (topn adds it): rename it upstream`,
            id,
          ),
        );
      }
      if (c.window) {
        checkWindow(c.window, (f) => at(`window.${f}`), id, problems);
        const clash = input?.find((x) => x === 'window_start' || x === 'window_end');
        if (clash)
          problems.push(
            err(
              `nodes[${index}]`,
              `the input of topn '${id}' already has a column '${clash}' (a windowed topn adds it): rename it upstream`,
              id,
            ),
          );
        return input ? ['window_start', 'window_end', ...input, TOPN_RANK_COLUMN] : null;
      }
      return input ? [...input, TOPN_RANK_COLUMN] : null;
    }
    default:
      return undefined;
  }
}
