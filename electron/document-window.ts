/**
 * The open document as the window shows it: title bar (`• name - Weir` while unsaved), macOS's
 * edited dot, and the prompt before closing unsaved work. "Save" asks the renderer to save and
 * closes once it reports the document clean; "Cancel" keeps the window.
 */
import { dialog, type BrowserWindow } from 'electron';
import type { AppCommand } from '../engine/host/common/api.ts';

export interface DocumentState {
  title: string;
  dirty: boolean;
  path?: string | null;
}

export interface DocumentWindow {
  update(state: DocumentState): void;
  readonly dirty: boolean;
}

export function attachDocumentState(win: BrowserWindow, command: (c: AppCommand) => void): DocumentWindow {
  let state: DocumentState = { title: 'Untitled', dirty: false, path: null };
  let closeWhenClean = false;
  let allowClose = false;

  function apply(): void {
    if (win.isDestroyed()) return;
    win.setTitle(`${state.dirty ? '• ' : ''}${state.title || 'Untitled'} - Weir`);
    if (process.platform === 'darwin') {
      win.setDocumentEdited(state.dirty);
      if (state.path) win.setRepresentedFilename(state.path);
    }
  }

  win.on('close', (event) => {
    if (allowClose || !state.dirty) return;
    event.preventDefault();
    void dialog
      .showMessageBox(win, {
        type: 'question',
        buttons: ['Save', "Don't Save", 'Cancel'],
        defaultId: 0,
        cancelId: 2,
        message: `Save the changes to “${state.title || 'Untitled'}” before closing?`,
        detail: 'Your changes are lost if you do not save them.',
      })
      .then(({ response }) => {
        if (response === 0) {
          closeWhenClean = true;
          command('save');
        } else if (response === 1) {
          allowClose = true;
          win.close();
        }
      });
  });

  return {
    update(next) {
      state = { ...next, title: next.title.slice(0, 200) };
      apply();
      if (closeWhenClean && !state.dirty) {
        closeWhenClean = false;
        allowClose = true;
        setImmediate(() => {
          if (!win.isDestroyed()) win.close();
        });
      }
    },
    get dirty() {
      return state.dirty;
    },
  };
}
