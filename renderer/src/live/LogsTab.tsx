/**
 * Logs / Exceptions: the run's log (logStore.ts), newest last, filterable by kind and by text.
 * Kept for the run, so earlier restarts and their causes stay readable after recovery.
 */
import { useMemo, useState } from 'react';
import { useLog, type LogKind } from '../stores/logStore.ts';
import { timeOfDay } from './format.ts';

const KINDS: Array<[LogKind, string]> = [
  ['restart', 'restarts'],
  ['failure', 'failures'],
  ['checkpoint', 'checkpoint failures'],
  ['bad-record', 'bad records'],
  ['stderr', 'task stderr'],
  ['notice', 'notices'],
];

export function LogsTab() {
  const entries = useLog((s) => s.entries);
  const [hidden, setHidden] = useState<ReadonlySet<LogKind>>(new Set());
  const [text, setText] = useState('');
  const counts = useMemo(() => {
    const c = new Map<LogKind, number>();
    for (const e of entries) c.set(e.kind, (c.get(e.kind) ?? 0) + 1);
    return c;
  }, [entries]);
  const shown = useMemo(() => {
    const q = text.trim().toLowerCase();
    return entries.filter((e) => !hidden.has(e.kind) && (!q || e.message.toLowerCase().includes(q)));
  }, [entries, hidden, text]);
  const toggle = (k: LogKind) =>
    setHidden((h) => {
      const n = new Set(h);
      if (n.has(k)) n.delete(k);
      else n.add(k);
      return n;
    });
  return (
    <div className="logs" data-testid="logs" data-count={entries.length}>
      <div className="logs__bar">
        {KINDS.map(([k, label]) => (
          <label key={k} className={`logs__kind logs__kind--${k}${hidden.has(k) ? '' : ' is-on'}`}>
            <input type="checkbox" checked={!hidden.has(k)} data-testid={`logs-kind-${k}`} onChange={() => toggle(k)} />
            {label} <span className="dim">{counts.get(k) ?? 0}</span>
          </label>
        ))}
        <input
          className="input logs__search"
          type="search"
          placeholder="Filter messages…"
          value={text}
          data-testid="logs-filter"
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="logs__list">
        <table className="live-table logs__table">
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td className="live-table__empty">
                  {entries.length ? 'Nothing matches the filter.' : 'Nothing logged for this run yet.'}
                </td>
              </tr>
            )}
            {shown.map((e) => (
              <tr
                key={e.seq}
                className={`logs__row logs__row--${e.level}`}
                data-testid="log-entry"
                data-kind={e.kind}
                data-level={e.level}
              >
                <td className="logs__time">{timeOfDay(e.time)}</td>
                <td>
                  <span className={`logs__tag logs__tag--${e.kind}`}>{e.kind}</span>
                </td>
                <td className="logs__msg">{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
