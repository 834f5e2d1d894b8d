/** Bottom bar: problems (from the validator), counts, snap and zoom state, run failure cause. */
import { useDoc } from '../state.ts';
import { uiStore, useUi } from '../ui/uiStore.ts';
import { useRun } from '../stores/runStore.ts';
import { ProblemList } from './ProblemList.tsx';
import { useAllProblems } from './useAllProblems.ts';

export function StatusBar() {
  const problems = useAllProblems();
  const nodes = useDoc((s) => s.job.nodes.length);
  const edges = useDoc((s) => s.job.edges.length);
  const snap = useUi((s) => s.snapToGrid);
  const cause = useRun((s) => (s.status === 'failed' ? s.cause : null));
  const connection = useUi((s) => s.connection);
  const open = useUi((s) => s.problemsOpen);
  const setOpen = (f: (o: boolean) => boolean) => uiStore.setState((s) => ({ problemsOpen: f(s.problemsOpen) }));
  const errors = problems.filter((p) => p.severity !== 'warning').length;
  const warnings = problems.length - errors;
  return (
    <footer className="statusbar">
      <button
        type="button"
        className={`statusbar__problems${errors ? ' has-errors' : ''}`}
        data-testid="problems"
        data-count={problems.length}
        onClick={() => setOpen((o) => !o)}
      >
        {errors === 0 && warnings === 0
          ? '✓ valid'
          : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`}
      </button>
      <span>
        {nodes} nodes · {edges} edges
      </span>
      <span>snap {snap ? 'on' : 'off'} (G)</span>
      {connection !== 'open' && (
        <span className="statusbar__conn" data-testid="connection">
          {connection === 'closed' ? 'disconnected from Weir' : 'reconnecting to Weir…'}
        </span>
      )}
      {cause && (
        <span className="statusbar__cause" data-testid="run-cause">
          run failed: {cause}
        </span>
      )}
      <span className="statusbar__right">Double-click canvas to add · Shift+drag to box-select · ? for shortcuts</span>
      {open && <ProblemList />}
    </footer>
  );
}
