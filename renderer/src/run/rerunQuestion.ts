/**
 * The question a fresh run asks when a sink already holds output an earlier run committed (the
 * host's `output_exists`): continue that run from its latest checkpoint, delete that output and
 * start over, or cancel. Asked in the app's own dialog (panels/RerunDialog.tsx); `askRerun`
 * resolves with the choice. Plain TS.
 */
import { createStore, useStore } from 'zustand';

export type RerunChoice = 'resume' | 'clear' | 'cancel';

export interface RerunQuestion {
  /** The sink's name and folder, and how many files are there, when the host's message says. */
  sink: string | null;
  folder: string | null;
  files: number | null;
  /** The host's own words, for what the parse above did not catch. */
  detail: string;
}

interface State {
  question: RerunQuestion | null;
  answer: ((c: RerunChoice) => void) | null;
}

export const rerunStore = createStore<State>()(() => ({ question: null, answer: null }));

export function useRerun<T>(selector: (s: State) => T): T {
  return useStore(rerunStore, selector);
}

const EXISTS = /sink '([^']+)': (.+?) already holds committed output \((\d+) file/;

/** The host's `output_exists` message as the dialog's parts (the CLI's options left out). */
export function parseOutputExists(message: string): RerunQuestion {
  const m = EXISTS.exec(message);
  const detail = message.replace(/\s*Choose one:.*$/s, '');
  return m
    ? { sink: m[1], folder: m[2], files: Number(m[3]), detail }
    : { sink: null, folder: null, files: null, detail };
}

export function askRerun(message: string): Promise<RerunChoice> {
  rerunStore.getState().answer?.('cancel');
  return new Promise((resolve) => {
    rerunStore.setState({ question: parseOutputExists(message), answer: resolve });
  });
}

export function answerRerun(choice: RerunChoice): void {
  const { answer } = rerunStore.getState();
  rerunStore.setState({ question: null, answer: null });
  answer?.(choice);
}
