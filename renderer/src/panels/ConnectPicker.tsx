/**
 * Connecting ports from the keyboard: with one node selected, `C` lists every input its output
 * (and a window's `late` or a dead-letter file source's `bad` output) may connect to, by the engine's own rules; arrows and Enter
 * connect, typing filters, Escape closes. Targets the rules refuse are listed with the reason.
 * Below the existing nodes it offers new ones (as the quick add does when a wire is dropped on the
 * canvas): the new node goes right of this one, where no node is, connected. Focus then moves to
 * the node connected to.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { docStore, useDoc } from '../state.ts';
import { uiStore, useUi } from '../ui/uiStore.ts';
import { checkConnection } from '../model/connections.ts';
import { nodeOutputs, searchCatalog, typeInfo, type OutputPort } from '../model/catalog.ts';
import { addEdge } from '../model/ops.ts';
import { freeSpot } from '../model/freeSpot.ts';
import { isSink } from '../../../engine/graph/ports.ts';
import type { JobNode, NodeType } from '../../../engine/graph/types.ts';
import { addNodeConnected } from '../canvas/commands.ts';
import { focusNode } from '../canvas/focusNode.ts';

interface Choice {
  /** An existing node's id, or null for a new node of `type`. */
  to: string | null;
  type?: NodeType;
  port: OutputPort;
  label: string;
  reason: string | null;
}

/** A node right of `from` (a column further), moved down past any node already there. */
const NEXT_COLUMN = 280;

/** New nodes that may take `port` of `from`: every type with an input; dead letters go to sinks only. */
function newChoices(from: JobNode, query: string): Choice[] {
  const port = nodeOutputs(from)[0];
  if (!port) return [];
  return searchCatalog(query)
    .flatMap((g) => g.items)
    .filter((i) => i.hasInput && (port !== 'bad' || isSink(i.type)))
    .map((i) => ({ to: null, type: i.type, port, label: `New ${i.label}`, reason: null }));
}

export function ConnectPicker() {
  const from = useUi((s) => s.connectFrom);
  const job = useDoc((s) => s.job);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // Before paint: keys typed the moment the picker shows go to its input, never to the canvas's
  // shortcuts (a passive effect focused it a frame later, which a busy machine made visible).
  useLayoutEffect(() => {
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
    const existing = out.filter((c) => !q || c.label.toLowerCase().includes(q));
    // Possible connections first, then new nodes; refused ones stay visible with their reason.
    return [...existing.filter((c) => !c.reason), ...newChoices(source, query), ...existing.filter((c) => c.reason)];
  }, [source, job, query]);
  if (!from || !source) return null;
  const close = () => uiStore.setState({ connectFrom: null });
  const choose = (c: Choice | undefined) => {
    if (!c || c.reason) return;
    close();
    if (c.to === null) {
      if (!c.type) return;
      const at = source.position ?? { x: 0, y: 0 };
      const spot = freeSpot(docStore.getState().job, { x: at.x + NEXT_COLUMN, y: at.y });
      focusNode(addNodeConnected(c.type, spot, { nodeId: source.id, port: c.port }));
      return;
    }
    const v = checkConnection(docStore.getState().job, { from: source.id, to: c.to, fromPort: c.port });
    if (!v.ok) return;
    docStore.getState().commit('connect', (j) => addEdge(j, v.edge));
    focusNode(c.to);
  };
  return (
    <div
      ref={box}
      className="quickadd connect-picker"
      data-testid="connect-picker"
      onMouseDown={(e) => e.stopPropagation()}
    >
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
        // Closes once focus has left the popup, read 150 ms later (a click on an item lands first).
        // Not when it is gone or open again by then: a stale timer closed the next picker.
        onBlur={() =>
          setTimeout(() => {
            if (box.current && !box.current.contains(document.activeElement)) close();
          }, 150)
        }
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
            key={`${c.port}:${c.to ?? `new:${c.type}`}`}
            data-testid={
              c.to === null ? `connect-new-${c.type}` : `connect-to-${c.to}${c.port === 'out' ? '' : `-${c.port}`}`
            }
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
