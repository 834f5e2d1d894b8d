/**
 * The popover of a hovered or selected canvas edge: the columns it carries with their Flink types,
 * nullability and time attribute, and whether it is a changelog. Drawn in the edge label layer at
 * the edge's middle, and kept at screen size whatever the zoom (a fit-to-view at zoom 0.5 would
 * otherwise halve its text). Only the active edges render one.
 */
import { EdgeLabelRenderer, useStore } from '@xyflow/react';
import { useEdgeSchema, useNodeNames } from './useSchemas.ts';
import { SchemaColumns, SchemaKind } from './SchemaColumns.tsx';

export function EdgeSchemaPopover({
  edgeId,
  x,
  y,
  pinned,
}: {
  edgeId: string;
  x: number;
  y: number;
  /** Selected (not only hovered): it takes the pointer, so a long list can be scrolled. */
  pinned: boolean;
}) {
  const zoom = useStore((s) => s.transform[2]);
  const found = useEdgeSchema(edgeId);
  const names = useNodeNames([found?.edge.from, found?.edge.to]);
  if (!found) return null;
  const { edge, schema } = found;
  const label = `Columns from ${names[0]} to ${names[1]}`;
  return (
    <EdgeLabelRenderer>
      <div
        className={`edge-schema nodrag nopan nowheel${pinned ? ' is-pinned' : ''}`}
        role="dialog"
        aria-label={label}
        data-testid="edge-schema"
        data-edge={edgeId}
        style={{ transform: `translate(${x}px, ${y}px) scale(${1 / zoom}) translate(-50%, 14px)` }}
      >
        <div className="edge-schema__head">
          <span className="edge-schema__title">
            {names[0]} → {names[1]}
            {edge.fromPort && edge.fromPort !== 'out' ? ` (${edge.fromPort})` : ''}
          </span>
          <SchemaKind schema={schema} />
        </div>
        <SchemaColumns schema={schema} label={label} testId="edge-schema-columns" />
      </div>
    </EdgeLabelRenderer>
  );
}
