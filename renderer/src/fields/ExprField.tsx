/**
 * A SQL expression input: syntax highlighted (a highlighted copy laid under a transparent
 * textarea), checked as you type by the engine's own compiler with the error marked at the
 * parser's column, and completions for upstream columns (Tab/Enter to accept) plus column chips.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { checkExpression, type ExpressionKind } from '../../../engine/sql/index.ts';
import { completionsFor, highlightSql, wordBefore } from '../model/highlight.ts';
import { Field } from './fields.tsx';
import { sampledTypes, useSampled } from '../model/sampledColumns.ts';

export interface ExprFieldProps {
  label: string;
  kind: ExpressionKind;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  columns: readonly string[];
  /** Problems from the job validator for this field (e.g. unknown column), shown when it compiles. */
  validatorError?: string | null;
  placeholder?: string;
  testId: string;
  hint?: string;
  /** A checker other than the engine's for `kind` (a join's L./R. select list). */
  check?: (text: string) => { column: number; detail: string } | null;
}

export function ExprField(p: ExprFieldProps) {
  const id = useId();
  const text = p.value ?? '';
  const area = useRef<HTMLTextAreaElement>(null);
  const under = useRef<HTMLPreElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  // Types of columns sampled from source data, shown next to completions.
  const byNode = useSampled((s) => s.byNode);
  const types = useMemo(() => sampledTypes(byNode), [byNode]);

  const check = p.check;
  const error = useMemo(
    () => (text.trim() === '' ? null : check ? check(text) : checkExpression(p.kind, text)),
    [p.kind, text, check],
  );
  const tokens = useMemo(() => highlightSql(text), [text]);
  const errAt = error ? Math.min(Math.max(0, error.column - 1), Math.max(0, text.length - 1)) : -1;
  const word = caret === null ? { word: '', start: 0 } : wordBefore(text, caret);
  const items = dismissed ? [] : completionsFor(word.word, p.columns);

  const insert = (completion: string, start: number, end: number) => {
    const next = text.slice(0, start) + completion + text.slice(end);
    p.onChange(next);
    const pos = start + completion.length;
    requestAnimationFrame(() => {
      area.current?.setSelectionRange(pos, pos);
      setCaret(pos);
    });
  };

  const message = error ? `${error.detail} (column ${error.column})` : (p.validatorError ?? null);

  return (
    <Field label={p.label} error={message} htmlFor={id} hint={p.hint}>
      <div className={`expr${error ? ' expr--error' : ''}`}>
        <pre ref={under} className="expr__hl" aria-hidden="true">
          {tokens.map((t, i) => {
            const inErr = errAt >= t.start && errAt < t.start + t.text.length;
            if (!inErr)
              return (
                <span key={i} className={`tk-${t.kind}`}>
                  {t.text}
                </span>
              );
            const o = errAt - t.start;
            return (
              <span key={i} className={`tk-${t.kind}`}>
                {t.text.slice(0, o)}
                <span className="tk-error" data-testid={`${p.testId}-error-mark`}>
                  {t.text[o]}
                </span>
                {t.text.slice(o + 1)}
              </span>
            );
          })}
          {'\n'}
        </pre>
        <textarea
          id={id}
          ref={area}
          className="expr__input"
          value={text}
          spellCheck={false}
          rows={Math.min(4, Math.max(1, Math.ceil(text.length / 34)))}
          placeholder={p.placeholder}
          data-testid={p.testId}
          aria-invalid={!!error}
          onChange={(e) => {
            setDismissed(false);
            setActive(0);
            setCaret(e.target.selectionStart);
            p.onChange(e.target.value === '' ? undefined : e.target.value);
          }}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart)}
          onBlur={() => setTimeout(() => setCaret(null), 120)}
          onScroll={(e) => {
            if (under.current) under.current.scrollTop = (e.target as HTMLTextAreaElement).scrollTop;
          }}
          onKeyDown={(e) => {
            if (items.length === 0) {
              if (e.key === 'Enter') e.preventDefault();
              return;
            }
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((a) => (a + 1) % items.length);
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => (a - 1 + items.length) % items.length);
            } else if (e.key === 'Tab' || e.key === 'Enter') {
              e.preventDefault();
              insert(items[active], word.start, caret ?? text.length);
            } else if (e.key === 'Escape') {
              e.stopPropagation();
              setDismissed(true);
            }
          }}
        />
        {items.length > 0 && (
          <ul className="expr__complete" role="listbox" data-testid={`${p.testId}-completions`}>
            {items.map((c, i) => (
              <li
                key={c}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'is-active' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  insert(c, word.start, caret ?? text.length);
                }}
              >
                {c}
                {p.columns.includes(c) && <span className="expr__kind">{types.get(c) ?? 'column'}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      {p.columns.length > 0 && (
        <div className="expr__cols">
          {p.columns.map((c) => (
            <button
              key={c}
              type="button"
              className="chip"
              title={`Insert ${c}${types.has(c) ? ` (${types.get(c)}, sampled from the data)` : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                const at = area.current?.selectionStart ?? text.length;
                insert(c, at, area.current?.selectionEnd ?? at);
              }}
            >
              {c}
            </button>
          ))}
        </div>
      )}
    </Field>
  );
}
