/** The node palette: grouped by kind, searchable; drag an item onto the canvas (or press Enter). */
import { useState, type DragEvent } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { NodeType } from '../../../engine/graph/types.ts';
import { searchCatalog } from '../model/catalog.ts';
import { TypeIcon } from '../canvas/icons.tsx';
import { PALETTE_MIME } from '../canvas/useCanvasHandlers.ts';
import { addNodeAt } from '../canvas/commands.ts';

export function Palette() {
  const [query, setQuery] = useState('');
  const groups = searchCatalog(query);
  const rf = useReactFlow();

  const onDragStart = (e: DragEvent, type: NodeType) => {
    e.dataTransfer.setData(PALETTE_MIME, type);
    e.dataTransfer.effectAllowed = 'copy';
  };
  const addAtCenter = (type: NodeType) => {
    const el = document.querySelector('.canvas')?.getBoundingClientRect();
    const p = rf.screenToFlowPosition({
      x: (el?.left ?? 0) + (el?.width ?? 800) / 2,
      y: (el?.top ?? 0) + (el?.height ?? 600) / 2,
    });
    addNodeAt(type, { x: p.x - 110, y: p.y - 30 });
  };

  return (
    <aside className="palette" data-testid="palette">
      <input
        className="palette__search"
        type="search"
        placeholder="Search nodes…"
        value={query}
        data-testid="palette-search"
        aria-label="Search nodes"
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && groups[0]) addAtCenter(groups[0].items[0].type);
        }}
      />
      <div className="palette__groups">
        {groups.map((g) => (
          <section key={g.group} className="palette__group">
            <h3 className="palette__title">{g.group}</h3>
            {g.items.map((i) => (
              <div
                key={i.type}
                className={`palette__item palette__item--${i.group.toLowerCase()}`}
                draggable
                tabIndex={0}
                role="button"
                data-testid={`palette-${i.type}`}
                title={i.description}
                onDragStart={(e) => onDragStart(e, i.type)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') addAtCenter(i.type);
                }}
                onDoubleClick={() => addAtCenter(i.type)}
              >
                <span className="palette__icon">
                  <TypeIcon type={i.type} />
                </span>
                <span className="palette__label">{i.label}</span>
              </div>
            ))}
          </section>
        ))}
        {groups.length === 0 && <div className="palette__none">No node matches “{query}”.</div>}
      </div>
      <div className="palette__foot">
        Drag onto the canvas · double-click the canvas to search · <kbd>?</kbd> shortcuts
      </div>
    </aside>
  );
}
