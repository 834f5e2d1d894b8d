/**
 * The application menu. Document and run commands are not performed here: they travel to the
 * renderer as `app.command` host events (the renderer owns the document and its undo history).
 * Cut/copy/paste keep Electron's roles so text fields behave natively.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../engine/host/common/api.ts';

export interface MenuActions {
  command(command: AppCommand): void;
  openRecent(path: string): void;
  recentFiles(): string[];
  isMac: boolean;
}

export function menuTemplate(a: MenuActions): MenuItemConstructorOptions[] {
  const cmd = (label: string, command: AppCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => a.command(command),
  });
  const recent = a.recentFiles();
  return [
    ...(a.isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        cmd('New', 'new', 'CmdOrCtrl+N'),
        cmd('Open…', 'open', 'CmdOrCtrl+O'),
        {
          label: 'Open Recent',
          enabled: recent.length > 0,
          submenu: recent.map((p) => ({ label: p, click: () => a.openRecent(p) })),
        },
        { type: 'separator' },
        cmd('Save', 'save', 'CmdOrCtrl+S'),
        cmd('Save As…', 'save-as', 'CmdOrCtrl+Shift+S'),
        cmd('Export…', 'export', 'CmdOrCtrl+E'),
        cmd('Import Flink SQL…', 'import-flink-sql'),
        { type: 'separator' },
        a.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: '&Edit',
      submenu: [
        cmd('Undo', 'undo', 'CmdOrCtrl+Z'),
        cmd('Redo', 'redo', a.isMac ? 'Shift+Cmd+Z' : 'Ctrl+Y'),
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&Run',
      submenu: [cmd('Run', 'run', 'F5'), cmd('Stop', 'stop', 'Shift+F5')],
    },
    {
      label: '&View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
  ];
}
