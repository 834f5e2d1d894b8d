/**
 * A SQL expression input: syntax highlighted (a highlighted copy laid under a transparent
 * textarea), checked as you type by the engine's own compiler, with the bad part underlined (the
 * token at the compiler's error column, and every use of a name the validator's message quotes:
 * an unknown column, a function applied to the wrong types), and completions for the input's
 * columns with their types and the engine's functions with their signatures (arrows, Enter/Tab to
 * accept, Escape to close), plus column chips.
 */
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { checkExpression, type ExpressionKind } from '../../../engine/sql/index.ts';
import { highlightSql } from '../model/highlight.ts';
import { completions, wordBefore, type Completion } from '../model/completions.ts';
import { errorRanges, splitToken } from '../model/errorMarks.ts';
import { Field } from './fields.tsx';
import { CompletionList, optionId } from './CompletionList.tsx';

export interface ExprFieldProps {
  label: string;
  kind: ExpressionKind;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  columns: readonly string[];
  /** Flink SQL type of each offered column, where the engine knows it. */
  types?: ReadonlyMap<string, string | null>;
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
  const listId = `${id}-completions`;
  const errorId = `${id}-error`;
  const text = p.value ?? '';
  const area = useRef<HTMLTextAreaElement>(null);
  const under = useRef<HTMLPreElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const types = p.types;

  const check = p.check;
  const error = useMemo(
    () => (text.trim() === '' ? null : check ? check(text) : checkExpression(p.kind, text)),
    [p.kind, text, check],
  );
  const tokens = useMemo(() => highlightSql(text), [text]);
  const word = caret === null ? { word: '', start: 0 } : wordBefore(text, caret);
  const typed = useMemo(() => p.columns.map((name) => ({ name, type: types?.get(name) ?? null })), [p.columns, types]);
  const items = dismissed ? [] : completions(word.word, typed, { aggregates: p.kind === 'aggregates' });
  const open = items.length > 0;
  const current = Math.min(active, Math.max(0, items.length - 1));
  // The word under the caret is not a misspelling yet while the list offers names for it: the
  // validator's "unknown column" for exactly that word waits until the word is completed, the list
  // is closed (Escape) or the field loses focus.
  const halfTyped = open && word.word !== '' && (p.validatorError ?? '').includes(`unknown column '${word.word}'`);
  const validatorError = error || halfTyped ? null : (p.validatorError ?? null);
  const marks = useMemo(
    () => errorRanges(tokens, error ? error.column : null, validatorError),
    [tokens, error, validatorError],
  );

  // The caret after an accepted completion is placed when the new text is committed, before the
  // browser handles another key: placed a frame later (requestAnimationFrame), keys typed in
  // between went to the end of the text and the caret then jumped back in front of them.
  const pendingCaret = useRef<{ text: string; pos: number } | null>(null);
  useLayoutEffect(() => {
    const pending = pendingCaret.current;
    if (!pending || !area.current || area.current.value !== pending.text) return;
    pendingCaret.current = null;
    area.current.setSelectionRange(pending.pos, pending.pos);
    setCaret(pending.pos);
  });
  const insert = (completion: string, start: number, end: number) => {
    const next = text.slice(0, start) + completion + text.slice(end);
    pendingCaret.current = { text: next, pos: start + completion.length };
    p.onChange(next);
  };
  const pick = (c: Completion) => {
    setActive(0);
    insert(c.insert, word.start, caret ?? text.length);
  };

  const message = error ? `${error.detail} (column ${error.column})` : validatorError;
  let firstMark = true;

  return (
    <Field label={p.label} error={message} htmlFor={id} hint={p.hint} errorId={errorId}>
      <div className={`expr${message ? ' expr--error' : ''}`}>
        <pre ref={under} className="expr__hl" aria-hidden="true">
          {tokens.map((t, i) => (
            <span key={i} className={`tk-${t.kind}`}>
              {marks.length === 0
                ? t.text
                : splitToken(t, marks).map((piece, j) => {
                    if (!piece.marked) return piece.text;
                    // One test id: the first mark (a field can mark several uses of one name).
                    const testId = firstMark ? `${p.testId}-error-mark` : undefined;
                    firstMark = false;
                    return (
                      <span key={j} className="tk-error" data-testid={testId} data-error-mark="">
                        {piece.text}
                      </span>
                    );
                  })}
            </span>
          ))}
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
          aria-invalid={!!message}
          aria-describedby={message ? errorId : undefined}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(listId, current) : undefined}
          onChange={(e) => {
            setDismissed(false);
            setActive(0);
            setCaret(e.target.selectionStart);
            p.onChange(e.target.value === '' ? undefined : e.target.value);
          }}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart)}
          // Later, so a click on a completion lands first; and only if the focus did not come back
          // meanwhile: a stale timer cleared the caret of words typed right after refocusing, and
          // the list never opened (designer-types failed so on a fresh clone).
          onBlur={() =>
            setTimeout(() => {
              if (document.activeElement !== area.current) setCaret(null);
            }, 120)
          }
          onScroll={(e) => {
            if (under.current) under.current.scrollTop = (e.target as HTMLTextAreaElement).scrollTop;
          }}
          onKeyDown={(e) => {
            if (!open) {
              if (e.key === 'Enter') e.preventDefault();
              return;
            }
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((current + 1) % items.length);
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((current - 1 + items.length) % items.length);
            } else if (e.key === 'Tab' || e.key === 'Enter') {
              e.preventDefault();
              pick(items[current]);
            } else if (e.key === 'Escape') {
              // Closes the list only: the inspector must not take Escape as "deselect".
              e.stopPropagation();
              e.nativeEvent.stopImmediatePropagation();
              setDismissed(true);
            }
          }}
        />
        {open && <CompletionList id={listId} items={items} active={current} testId={p.testId} onPick={pick} />}
      </div>
      {p.columns.length > 0 && (
        <div className="expr__cols">
          {p.columns.map((c) => (
            <button
              key={c}
              type="button"
              className="chip"
              title={`Insert ${c}${types?.get(c) ? ` (${types.get(c)})` : ''}`}
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
