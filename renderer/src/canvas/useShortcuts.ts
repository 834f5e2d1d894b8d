/** Window-level keyboard shortcuts and the clipboard (copy/cut/paste as JSON text). */
import { useEffect } from 'react';
import { handleKey, isTextTarget } from './shortcuts.ts';
import { deleteSelection, pasteText, rememberCopied, selectionText } from './commands.ts';

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleKey(e);
    // The DOM clipboard events need no permission and reach the system clipboard, so a copy in
    // one document (or window) pastes into another.
    const onCopy = (e: ClipboardEvent) => {
      if (isTextTarget(e.target) || hasTextSelection()) return;
      const text = selectionText();
      if (!text) return;
      e.preventDefault();
      e.clipboardData?.setData('text/plain', text);
      rememberCopied(text);
    };
    const onCut = (e: ClipboardEvent) => {
      if (isTextTarget(e.target) || hasTextSelection()) return;
      onCopy(e);
      if (e.defaultPrevented) deleteSelection();
    };
    const onPaste = (e: ClipboardEvent) => {
      if (isTextTarget(e.target)) return;
      if (pasteText(e.clipboardData?.getData('text/plain'))) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('copy', onCopy);
    document.addEventListener('cut', onCut);
    document.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('cut', onCut);
      document.removeEventListener('paste', onPaste);
    };
  }, []);
}

function hasTextSelection(): boolean {
  const sel = window.getSelection();
  return !!sel && sel.type === 'Range' && sel.toString().length > 0;
}
