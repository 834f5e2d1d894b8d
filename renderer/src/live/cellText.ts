/** Moved to model/ so the preview tables (debug/) share it; kept here for live/'s imports. */
export { cellText } from '../model/cellText.ts';
