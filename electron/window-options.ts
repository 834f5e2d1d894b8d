/**
 * The window's web preferences in one place, so a test pins them: the page gets no Node, runs
 * sandboxed and isolated from the preload, and cannot embed webviews.
 */
import type { WebPreferences } from 'electron';

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  };
}
