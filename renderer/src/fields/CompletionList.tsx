/**
 * The completion popup of an expression field: a listbox of columns (with their types), functions
 * (with their signatures), aggregates and keywords, and the full signature of the active function
 * under it. The field keeps the focus; the active option is announced through the field's
 * aria-activedescendant, so arrows, Enter/Tab and Escape stay on the field.
 */
import type { Completion } from '../model/completions.ts';

const KIND_LABEL: Record<Completion['kind'], string> = {
  column: 'column',
  function: 'function',
  aggregate: 'aggregate',
  keyword: 'keyword',
};

/** What a row shows after the name: a column's type, a function's parameters and result. */
function rowDetail(c: Completion): string {
  if (c.kind === 'column') return c.detail ?? 'column';
  if (c.kind === 'keyword' || !c.detail) return KIND_LABEL[c.kind];
  return c.detail.startsWith(c.label) ? c.detail.slice(c.label.length) : c.detail;
}

export function optionId(listId: string, i: number): string {
  return `${listId}-opt-${i}`;
}

export function CompletionList({
  id,
  items,
  active,
  testId,
  onPick,
}: {
  id: string;
  items: readonly Completion[];
  active: number;
  testId: string;
  onPick: (c: Completion) => void;
}) {
  const current = items[active];
  const signature = current && current.kind !== 'column' && current.kind !== 'keyword' ? current.detail : null;
  return (
    <div className="expr__popup">
      <ul
        className="expr__complete"
        role="listbox"
        id={id}
        aria-label="Completions"
        data-testid={`${testId}-completions`}
      >
        {items.map((c, i) => (
          <li
            key={`${c.kind}:${c.label}`}
            id={optionId(id, i)}
            role="option"
            aria-selected={i === active}
            data-kind={c.kind}
            className={`expr__option expr__option--${c.kind}${i === active ? ' is-active' : ''}`}
            onMouseDown={(e) => {
              // Keep the focus (and the caret) in the field.
              e.preventDefault();
              onPick(c);
            }}
          >
            <span className="expr__label">{c.label}</span>
            <span className="expr__kind">{rowDetail(c)}</span>
          </li>
        ))}
      </ul>
      {signature && (
        <div className="expr__sig" data-testid={`${testId}-signature`}>
          {signature}
        </div>
      )}
    </div>
  );
}
