/**
 * Every problem of the document at once, in words, each a button that selects its node (or
 * connection, or the job settings) and focuses the inspector field to fix.
 */
import { useMemo } from 'react';
import { useDoc, docStore } from '../state.ts';
import { uiStore } from '../ui/uiStore.ts';
import { edgeKey } from '../model/ops.ts';
import { describeProblem, problemLine, type ProblemText } from '../model/problemText.ts';
import { useAllProblems } from './useAllProblems.ts';

function goTo(t: ProblemText): void {
  const { job, select } = docStore.getState();
  const edge = t.edgeIndex !== null ? job.edges[t.edgeIndex] : undefined;
  if (t.nodeId) select([t.nodeId]);
  else if (edge) select([], [edgeKey(edge)]);
  else select([]);
  if (!t.fieldTestId) return;
  // The inspector renders the selected node's form on the next frame; focus its field then.
  const id = t.fieldTestId;
  const focus = (tries: number) => {
    const el = document.querySelector<HTMLElement>(`.inspector [data-testid="${CSS.escape(id)}"]`);
    if (el) {
      el.focus();
      el.scrollIntoView({ block: 'nearest' });
    } else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
  };
  requestAnimationFrame(() => focus(10));
}

export function ProblemList() {
  const problems = useAllProblems();
  const job = useDoc((s) => s.job);
  const items = useMemo(() => problems.map((p) => describeProblem(job, p)), [problems, job]);
  if (items.length === 0) return null;
  return (
    <ul className="problem-list" data-testid="problem-list">
      {items.map((t, i) => (
        <li key={i}>
          <button
            type="button"
            className={`problem-list__item${t.severity === 'warning' ? ' is-warning' : ''}`}
            data-testid="problem"
            data-node-id={t.nodeId ?? ''}
            data-field={t.fieldTestId ?? ''}
            onClick={() => {
              goTo(t);
              uiStore.setState({ problemsOpen: false });
            }}
          >
            <span className="problem-list__sev">{t.severity === 'warning' ? '⚠' : '✕'}</span>
            {problemLine(t)}
          </button>
        </li>
      ))}
    </ul>
  );
}
