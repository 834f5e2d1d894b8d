/**
 * A Flink SQL script handed to the Import Flink SQL dialog from outside it (a .sql file dropped on
 * the window): the dialog takes it when it opens and reads it at once.
 */
import { createStore } from 'zustand';
import { openDialog } from '../ui/uiStore.ts';

export const sqlDraftStore = createStore<{ text: string | null; name: string | null }>()(() => ({
  text: null,
  name: null,
}));

export function offerSql(text: string, name: string): void {
  sqlDraftStore.setState({ text, name });
  openDialog('import-flink-sql');
}

/** The offered script, once (null when none waits). */
export function takeSqlDraft(): { text: string; name: string } | null {
  const { text, name } = sqlDraftStore.getState();
  if (text === null) return null;
  sqlDraftStore.setState({ text: null, name: null });
  return { text, name: name ?? 'dropped.sql' };
}
