/** Type icons: small inline SVGs (each type's `palette.icon`) so nodes, palette and quick-add share them without assets. */
import type { NodeType } from '../../../engine/graph/types.ts';
import { isNodeType, nodeDefinition } from '../../../engine/graph/node-types.ts';

/** A type this version does not know (a file from elsewhere): a plain square. */
const UNKNOWN_ICON = 'M4 4h16v16H4z';

export function TypeIcon({ type, size = 16 }: { type: NodeType; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={isNodeType(type) ? nodeDefinition(type).palette.icon : UNKNOWN_ICON} />
    </svg>
  );
}
