/** `?`: every shortcut, read from the same table the key handler uses. */
import { SHORTCUTS } from '../canvas/shortcuts.ts';
import { useUi } from '../ui/uiStore.ts';
import { Modal } from './Modal.tsx';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
const show = (k: string) => k.replace('mod+', isMac ? '⌘' : 'Ctrl+');
const MOUSE = [
  ['Drag from palette', 'Add a node'],
  ['Double-click canvas', 'Search and add a node'],
  ['Drag port to port', 'Connect (refused with the reason when the engine would reject it)'],
  ['Drag an output to empty canvas', 'Add a node there, connected'],
  ['Click / Shift+click', 'Select / add to selection'],
  ['Shift+drag', 'Box select'],
  ['Drag canvas, wheel', 'Pan, zoom'],
  ['Drop a .json file', 'Import a weir.job/v1 document'],
];

export function HelpOverlay() {
  const open = useUi((s) => s.dialog === 'help');
  if (!open) return null;
  const groups = ['Edit', 'View', 'Document', 'Run'] as const;
  return (
    <Modal title="Keyboard shortcuts" testId="help-overlay" wide>
      <div className="help">
        {groups.map((g) => (
          <section key={g}>
            <h3 className="modal__section">{g}</h3>
            <table className="help__table">
              <tbody>
                {SHORTCUTS.filter((s) => s.group === g).map((s) => (
                  <tr key={s.label}>
                    <td>
                      {s.keys.map((k) => (
                        <kbd key={k}>{show(k)}</kbd>
                      ))}
                    </td>
                    <td>{s.label}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <section>
          <h3 className="modal__section">Mouse</h3>
          <table className="help__table">
            <tbody>
              {MOUSE.map(([k, v]) => (
                <tr key={k}>
                  <td>
                    <kbd>{k}</kbd>
                  </td>
                  <td>{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </Modal>
  );
}
