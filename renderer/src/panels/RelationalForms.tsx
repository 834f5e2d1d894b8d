/**
 * Inspector forms of the relational nodes: the joins (left/right keys, select list with L./R.
 * completions from both inputs), aggregate and topn. Field paths mirror the job format.
 */
import { useMemo } from 'react';
import type { JobNode, WindowSpec } from '../../../engine/graph/types.ts';
import { compileJoinSelect } from '../../../engine/sql/join-select.ts';
import { compileOrderBy } from '../../../engine/sql/order-by.ts';
import { ExpressionError } from '../../../engine/sql/index.ts';
import { DurationField, NumberField, SelectField, TextField } from '../fields/fields.tsx';
import { ExprField } from '../fields/ExprField.tsx';
import { joinInputColumns, portColumns } from '../model/columns.ts';
import { useDocShallow } from '../state.ts';
import { editConfig, replaceConfig } from './edit.ts';
import { WINDOW_KINDS, windowOfKind, type FormProps } from './NodeForms.tsx';

function checker(compile: (text: string) => unknown) {
  return (text: string) => {
    try {
      compile(text);
      return null;
    } catch (e) {
      if (e instanceof ExpressionError) return { column: e.column, detail: e.detail };
      return { column: 1, detail: (e as Error).message };
    }
  };
}
const checkJoinSelect = checker((t) => compileJoinSelect(t));
const checkWindowJoinSelect = checker((t) => compileJoinSelect(t, { windowColumns: true }));
const checkOrderBy = checker((t) => compileOrderBy(t));

type JoinType = 'join' | 'join.interval' | 'join.window';

/** Keys of both inputs and the select list, shared by the three joins. */
function JoinFields({
  node,
  err,
  windowColumns,
}: {
  node: Extract<JobNode, { type: JoinType }>;
  err: FormProps<'join'>['err'];
  windowColumns: boolean;
}) {
  const c = node.config;
  const both = useDocShallow((s) => joinInputColumns(s.job, node.id, windowColumns, s.path));
  const left = useDocShallow((s) => portColumns(s.job, node.id, 'left', s.path));
  const right = useDocShallow((s) => portColumns(s.job, node.id, 'right', s.path));
  return (
    <>
      <ExprField
        label="Left key"
        kind="keyBy"
        value={c.leftKey}
        columns={left}
        testId="f-leftKey"
        validatorError={err('leftKey')}
        placeholder="user"
        hint="Columns of the left input (L)"
        onChange={(v) => editConfig(node.id, ['leftKey'], v ?? '')}
      />
      <ExprField
        label="Right key"
        kind="keyBy"
        value={c.rightKey}
        columns={right}
        testId="f-rightKey"
        validatorError={err('rightKey')}
        placeholder="user"
        hint="Columns of the right input (R), in the same order"
        onChange={(v) => editConfig(node.id, ['rightKey'], v ?? '')}
      />
      <ExprField
        label="Select"
        kind="select"
        value={c.select}
        columns={both}
        testId="f-select"
        validatorError={err('select')}
        check={windowColumns ? checkWindowJoinSelect : checkJoinSelect}
        placeholder={windowColumns ? 'window_start, L.user, R.country' : 'L.user, L.amount, R.country'}
        hint={`Columns as L.x (left) and R.x (right)${windowColumns ? ', and window_start, window_end' : ''}`}
        onChange={(v) => editConfig(node.id, ['select'], v ?? '')}
      />
    </>
  );
}

export function IntervalJoinForm({ node, err }: FormProps<'join.interval'>) {
  const c = node.config;
  return (
    <>
      <JoinFields node={node} err={err} windowColumns={false} />
      <TextField
        label="Lower bound"
        value={String(c.lower ?? '')}
        testId="f-lower"
        error={err('lower')}
        hint="L.ts >= R.ts + lower (may be negative: -5s)"
        onChange={(v) => editConfig(node.id, ['lower'], v ?? '')}
      />
      <TextField
        label="Upper bound"
        value={String(c.upper ?? '')}
        testId="f-upper"
        error={err('upper')}
        hint="L.ts <= R.ts + upper"
        onChange={(v) => editConfig(node.id, ['upper'], v ?? '')}
      />
      <p className="note">
        Append-only. Each row is kept until the watermark passes the last time it could still match.
      </p>
    </>
  );
}

export function WindowJoinForm({ node, err }: FormProps<'join.window'>) {
  const c = node.config;
  const w: WindowSpec = c.window ?? { kind: 'tumbling', size: '10s' };
  return (
    <>
      <JoinFields node={node} err={err} windowColumns />
      <SelectField
        label="Window"
        value={w.kind}
        options={WINDOW_KINDS}
        testId="f-window.kind"
        error={err('window.kind')}
        onChange={(v) => replaceConfig(node.id, { ...c, window: windowOfKind(v ?? 'tumbling', w) })}
      />
      {w.kind !== 'session' && (
        <DurationField
          label="Size"
          value={w.size}
          testId="f-window.size"
          error={err('window.size')}
          onChange={(v) => editConfig(node.id, ['window', 'size'], v ?? '')}
        />
      )}
      {w.kind === 'session' && (
        <DurationField
          label="Gap"
          value={w.gap}
          testId="f-window.gap"
          error={err('window.gap')}
          onChange={(v) => editConfig(node.id, ['window', 'gap'], v ?? '')}
        />
      )}
      {w.kind === 'sliding' && (
        <DurationField
          label="Slide"
          value={w.slide}
          testId="f-window.slide"
          error={err('window.slide')}
          onChange={(v) => editConfig(node.id, ['window', 'slide'], v ?? '')}
        />
      )}
      <p className="note">
        Pairs are emitted when the watermark passes the window's end (append-only). A session is formed per key from the
        records of both inputs.
      </p>
    </>
  );
}

const JOIN_KINDS = [
  { value: 'inner', label: 'Inner' },
  { value: 'left', label: 'Left outer' },
  { value: 'right', label: 'Right outer' },
  { value: 'full', label: 'Full outer' },
] as const;

export function JoinForm({ node, err }: FormProps<'join'>) {
  const c = node.config;
  return (
    <>
      <SelectField
        label="Kind"
        value={c.kind}
        options={JOIN_KINDS}
        testId="f-kind"
        error={err('kind')}
        onChange={(v) => editConfig(node.id, ['kind'], v ?? 'inner')}
      />
      <JoinFields node={node} err={err} windowColumns={false} />
      <DurationField
        label="State TTL"
        value={c.stateTtl}
        testId="f-stateTtl"
        placeholder="keep forever"
        error={err('stateTtl')}
        hint="Rows this far behind the watermark are forgotten"
        onChange={(v) => editConfig(node.id, ['stateTtl'], v)}
      />
      {c.kind !== 'inner' && (
        <p className="note">
          An outer join emits a changelog: a row padded with NULLs is retracted when its first match arrives.
        </p>
      )}
    </>
  );
}

export function AggregateForm({ node, err, columns }: FormProps<'aggregate'>) {
  const c = node.config;
  return (
    <>
      <ExprField
        label="Key by"
        kind="keyBy"
        value={c.keyBy}
        columns={columns}
        testId="f-keyBy"
        validatorError={err('keyBy')}
        placeholder="category"
        hint="Comma-separated columns"
        onChange={(v) => editConfig(node.id, ['keyBy'], v ?? '')}
      />
      <ExprField
        label="Aggregates"
        kind="aggregates"
        value={c.aggregates}
        columns={columns}
        testId="f-aggregates"
        validatorError={err('aggregates')}
        placeholder="COUNT(*) AS n, AVG(price) AS avg_price"
        hint="Also COUNT(DISTINCT x) and … FILTER (WHERE …)"
        onChange={(v) => editConfig(node.id, ['aggregates'], v ?? '')}
      />
      <DurationField
        label="State TTL"
        value={c.stateTtl}
        testId="f-stateTtl"
        placeholder="keep forever"
        error={err('stateTtl')}
        hint="Keys not updated this long (event time) are forgotten"
        onChange={(v) => editConfig(node.id, ['stateTtl'], v)}
      />
      <p className="note">Emits a changelog: +I for a key's first result, then -U / +U as it changes.</p>
    </>
  );
}

export function TopNForm({ node, err, columns }: FormProps<'topn'>) {
  const c = node.config;
  const dedup = useMemo(
    () => c.limit === 1 && /^\s*\S+\s+(ASC|DESC)?\s*$/i.test(c.orderBy ?? ''),
    [c.limit, c.orderBy],
  );
  return (
    <>
      <ExprField
        label="Partition by"
        kind="keyBy"
        value={c.partitionBy}
        columns={columns}
        testId="f-partitionBy"
        validatorError={err('partitionBy')}
        placeholder="auction"
        onChange={(v) => editConfig(node.id, ['partitionBy'], v ?? '')}
      />
      <ExprField
        label="Order by"
        kind="select"
        value={c.orderBy}
        columns={columns}
        testId="f-orderBy"
        validatorError={err('orderBy')}
        check={checkOrderBy}
        placeholder="price DESC, ts ASC"
        hint="Columns with ASC (default) or DESC"
        onChange={(v) => editConfig(node.id, ['orderBy'], v ?? '')}
      />
      <NumberField
        label="Limit"
        value={c.limit}
        integer
        min={1}
        testId="f-limit"
        error={err('limit')}
        onChange={(v) => editConfig(node.id, ['limit'], v ?? 1)}
      />
      <SelectField
        label="Per window"
        value={c.window?.kind}
        allowUnset="no: a running top N (changelog)"
        options={WINDOW_KINDS}
        testId="f-window.kind"
        error={err('window.kind')}
        onChange={(v) =>
          replaceConfig(node.id, {
            ...c,
            window:
              v === undefined
                ? undefined
                : c.window
                  ? windowOfKind(v, c.window)
                  : v === 'sliding'
                    ? { kind: 'sliding', size: '10s', slide: '5s' }
                    : v === 'session'
                      ? { kind: 'session', gap: '10s' }
                      : { kind: 'tumbling', size: '10s' },
          })
        }
      />
      {c.window && c.window.kind !== 'session' && (
        <DurationField
          label="Window size"
          value={c.window.size}
          testId="f-window.size"
          error={err('window.size')}
          onChange={(v) => editConfig(node.id, ['window', 'size'], v ?? '')}
        />
      )}
      {c.window?.kind === 'session' && (
        <DurationField
          label="Gap"
          value={c.window.gap}
          testId="f-window.gap"
          error={err('window.gap')}
          onChange={(v) => editConfig(node.id, ['window', 'gap'], v ?? '')}
        />
      )}
      {c.window?.kind === 'sliding' && (
        <DurationField
          label="Slide"
          value={c.window.slide}
          testId="f-window.slide"
          error={err('window.slide')}
          onChange={(v) => editConfig(node.id, ['window', 'slide'], v ?? '')}
        />
      )}
      <p className="note">
        {c.window
          ? "Emits each window's top rows once, when the watermark passes its end (append-only)."
          : dedup
            ? 'Limit 1 ordered by one column: deduplication (ts ASC keeps the first row, DESC the last).'
            : 'Emits a changelog of rank changes; each row carries its rank as rownum.'}
      </p>
    </>
  );
}
