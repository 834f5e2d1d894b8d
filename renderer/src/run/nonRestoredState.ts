/**
 * The question a restore asks when the checkpoint holds state of nodes the job no longer has (the
 * host's `non_restored_state`): drop that state and restore anyway, or cancel. Flink's
 * `--allowNonRestoredState`; the CLI's `--allow-non-restored-state`. One question at a time.
 */
import { createStore, useStore } from 'zustand';

export interface NonRestoredQuestion {
  /** Ids of the nodes whose state would be dropped. */
  nodes: string[];
  /** The host's refusal, naming the checkpoint. */
  message: string;
}

interface State {
  question: NonRestoredQuestion | null;
  answer: ((restoreAnyway: boolean) => void) | null;
}

const store = createStore<State>()(() => ({ question: null, answer: null }));

export function useNonRestored<T>(selector: (s: State) => T): T {
  return useStore(store, selector);
}

/** Shows the dialog; resolves true for "Restore anyway", false for Cancel. */
export function askNonRestored(question: NonRestoredQuestion): Promise<boolean> {
  store.getState().answer?.(false);
  return new Promise((resolve) => store.setState({ question, answer: resolve }));
}

export function answerNonRestored(restoreAnyway: boolean): void {
  const { answer } = store.getState();
  store.setState({ question: null, answer: null });
  answer?.(restoreAnyway);
}
