/**
 * Connecting ports from the keyboard: with one node selected, `C` lists every input its output
 * (and a window's `late` or a dead-letter file source's `bad` output) may connect to, by the engine's own rules; arrows and Enter
 * connect, typing filters, Escape closes. Targets the rules refuse are listed with the reason.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { docStore, useDoc } from '../state.ts';
import { uiStore, useUi } from '../ui/uiStore.ts';
import { checkConnection } from '../model/connections.ts';
import { nodeOutputs, typeInfo, type OutputPort } from '../model/catalog.ts';
import { addEdge } from '../model/ops.ts';

interface Choice {
  to: string;
  port: OutputPort;
  label: string;
  reason: string | null;
}

export function ConnectPicker() {
  const from = useUi((s) => s.connectFrom);
  const job = useDoc((s) => s.job);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (from) {
      setQuery('');
      setActive(0);
      input.current?.focus();
    }
  }, [from]);
  const source = from ? job.nodes.find((n) => n.id === from) : undefined;
  const choices = useMemo(() => {
    if (!source) return [];
    const out: Choice[] = [];
    for (const port of nodeOutputs(source)) {
      for (const n of job.nodes) {
        if (n.id === source.id || !typeInfo(n.type).hasInput) continue;
        const v = checkConnection(job, { from: source.id, to: n.id, fromPort: port });
        const label = `${port === 'out' ? '' : `${port} → `}${n.name || n.id}`;
        out.push({ to: n.id, port, label, reason: v.ok ? null : v.reason });
      }
    }
    const q = query.trim().toLowerCase();
    // Possible connections first; refused ones stay visible with their reason.
    return out
      .filter((c) => !q || c.label.toLowerCase().includes(q))
      .sort((a, b) => Number(a.reason !== null) - Number(b.reason !== null));
  }, [source, job, query]);
  if (!from || !source) return null;
  const close = () => uiStore.setState({ connectFrom: null });
  const choose = (c: Choice | undefined) => {
    if (!c || c.reason) return;
    const v = checkConnection(docStore.getState().job, { from: source.id, to: c.to, fromPort: c.port });
    if (v.ok) docStore.getState().commit('connect', (j) => addEdge(j, v.edge));
    close();
  };
  return (
    <div className="quickadd connect-picker" data-testid="connect-picker" onMouseDown={(e) => e.stopPropagation()}>
      <div className="connect-picker__title">
        Connect <b>{source.name || source.id}</b> to…
      </div>
      <input
        ref={input}
        className="quickadd__input"
        placeholder="Filter nodes…"
        value={query}
        data-testid="connect-picker-input"
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onBlur={() => setTimeout(close, 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(choices.length - 1, a + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(choices[active]);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      <ul className="quickadd__list">
        {choices.map((c, i) => (
          <li
            key={`${c.port}:${c.to}`}
            data-testid={`connect-to-${c.to}${c.port === 'out' ? '' : `-${c.port}`}`}
            className={`${i === active ? 'is-active' : ''}${c.reason ? ' is-refused' : ''}`}
            title={c.reason ?? undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(c);
            }}
            onMouseEnter={() => setActive(i)}
          >
            {c.label}
            {c.reason && <span className="quickadd__group">{c.reason}</span>}
          </li>
        ))}
        {choices.length === 0 && <li className="quickadd__none">No node takes an input here</li>}
      </ul>
    </div>
  );
}
