/**
 * The `expression` field kind: a Flink SQL field with squiggles from the engine's own compiler and
 * completions for the columns the descriptor names (the input, one side of a join, or both as
 * L./R.). A join's select list and an ORDER BY compile with their own checkers.
 */
import { fieldLabel, type ExpressionFieldDescriptor, type ExpressionKind } from '../../../engine/nodes/fields.ts';
import type { ExpressionKind as SqlExpressionKind } from '../../../engine/sql/index.ts';
import { ExpressionError } from '../../../engine/sql/index.ts';
import { compileJoinSelect } from '../../../engine/sql/join-select.ts';
import { compileOrderBy } from '../../../engine/sql/order-by.ts';
import { ExprField } from '../fields/ExprField.tsx';
import { joinInputColumns, portColumns } from '../model/columns.ts';
import { useDocShallow } from '../state.ts';
import { useInputTypes } from '../schema/useSchemas.ts';
import { bind, type FieldContext } from './fieldBinding.ts';

type Check = (text: string) => { column: number; detail: string } | null;

function checker(compile: (text: string) => unknown): Check {
  return (text) => {
    try {
      compile(text);
      return null;
    } catch (e) {
      if (e instanceof ExpressionError) return { column: e.column, detail: e.detail };
      return { column: 1, detail: (e as Error).message };
    }
  };
}

/** How each expression kind compiles: the engine's kind, or a checker of its own. */
const COMPILED_AS: Record<ExpressionKind, { kind: SqlExpressionKind; check?: Check }> = {
  where: { kind: 'where' },
  select: { kind: 'select' },
  keyBy: { kind: 'keyBy' },
  aggregates: { kind: 'aggregates' },
  orderBy: { kind: 'select', check: checker((t) => compileOrderBy(t)) },
  joinSelect: { kind: 'select', check: checker((t) => compileJoinSelect(t)) },
  windowJoinSelect: { kind: 'select', check: checker((t) => compileJoinSelect(t, { windowColumns: true })) },
};

export function ExpressionInput({ field, node, config, columns, err }: FieldContext<ExpressionFieldDescriptor>) {
  const b = bind(node, config, err, field.path, field.empty);
  const offered = useDocShallow((s) =>
    field.columns === 'input'
      ? columns
      : field.columns === 'both'
        ? joinInputColumns(s.job, node.id, field.expression === 'windowJoinSelect', s.path)
        : portColumns(s.job, node.id, field.columns, s.path),
  );
  const types = useInputTypes(node.id);
  const compiled = COMPILED_AS[field.expression];
  return (
    <ExprField
      label={fieldLabel(field)}
      kind={compiled.kind}
      check={compiled.check}
      value={b.value as string | undefined}
      columns={offered}
      types={types}
      testId={b.testId}
      placeholder={field.placeholder}
      validatorError={b.error}
      hint={field.help}
      onChange={b.onChange}
    />
  );
}
