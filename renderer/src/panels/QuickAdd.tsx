/** Search-and-add popup opened by double-clicking the canvas (or Space / A). */
import { useLayoutEffect, useRef, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { searchCatalog } from '../model/catalog.ts';
import { isSink } from '../../../engine/graph/ports.ts';
import { TypeIcon } from '../canvas/icons.tsx';
import { addNodeAt, addNodeConnected } from '../canvas/commands.ts';
import { uiStore, useUi } from '../ui/uiStore.ts';
import { freeSpot } from '../model/freeSpot.ts';
import { docStore } from '../state.ts';
import { focusNode } from '../canvas/focusNode.ts';

export function QuickAdd() {
  const qa = useUi((s) => s.quickAdd);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const rf = useReactFlow();
  // Before paint: keys typed the moment the picker shows go to its input, never to the canvas's
  // shortcuts (a passive effect focused it a frame later, which a busy machine made visible).
  useLayoutEffect(() => {
    if (qa) {
      setQuery('');
      setActive(0);
      input.current?.focus();
    }
  }, [qa]);
  if (!qa) return null;
  // Connecting from an output: only nodes that take an input are offered; dead letters (`bad`)
  // go to sinks only (check-dead-letters.ts), so nothing else would end up connected.
  const items = searchCatalog(query)
    .flatMap((g) => g.items)
    .filter((i) => !qa.connectFrom || (qa.connectFrom.port === 'bad' ? isSink(i.type) : i.hasInput));
  const close = () => uiStore.setState({ quickAdd: null });
  const choose = (i: number) => {
    const item = items[i];
    if (!item) return;
    const flow = Number.isNaN(qa.flow.x) ? rf.screenToFlowPosition(qa.screen) : qa.flow;
    const id = qa.connectFrom
      ? addNodeConnected(item.type, { x: flow.x, y: flow.y - 28 }, qa.connectFrom)
      : // The keyboard asks for the same place every time: the next node goes below the last one.
        addNodeAt(item.type, freeSpot(docStore.getState().job, { x: flow.x - 20, y: flow.y - 20 }));
    close();
    focusNode(id);
  };
  return (
    <div
      ref={box}
      className="quickadd"
      style={{ left: qa.screen.x, top: qa.screen.y }}
      data-testid="quick-add"
      onMouseDown={(e) => e.stopPropagation()}
    >
      <input
        ref={input}
        className="quickadd__input"
        placeholder={qa.connectFrom ? 'Add and connect…' : 'Add node…'}
        value={query}
        data-testid="quick-add-input"
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
            setActive((a) => Math.min(items.length - 1, a + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(active);
          } else if (e.key === 'Escape') close();
        }}
      />
      <ul className="quickadd__list">
        {items.map((i, idx) => (
          <li
            key={i.type}
            className={idx === active ? 'is-active' : ''}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(idx);
            }}
            onMouseEnter={() => setActive(idx)}
          >
            <span className={`quickadd__icon quickadd__icon--${i.group.toLowerCase()}`}>
              <TypeIcon type={i.type} size={14} />
            </span>
            {i.label}
            <span className="quickadd__group">{i.group}</span>
          </li>
        ))}
        {items.length === 0 && <li className="quickadd__none">No match</li>}
      </ul>
    </div>
  );
}
