/** Type icons: small inline SVGs so nodes, palette and quick-add share them without assets. */
import type { NodeType } from '../../../engine/graph/types.ts';

const PATHS: Record<NodeType, string> = {
  // document with lines
  'source.file': 'M6 3h8l4 4v14H6z M14 3v4h4 M9 12h6 M9 15h6 M9 18h4',
  // spark / generator
  'source.generator': 'M12 3v4 M12 17v4 M3 12h4 M17 12h4 M6 6l2.5 2.5 M15.5 15.5L18 18 M6 18l2.5-2.5 M15.5 8.5L18 6',
  // gavel (auctions)
  'source.nexmark': 'M5 21h10 M8 17h4 M13 3l6 6 M10 6l6 6 M11.5 4.5l-4 4 6 6 4-4 M9.5 10.5L3 17',
  // database cylinder
  'source.postgres':
    'M5 6c0-1.7 3.1-3 7-3s7 1.3 7 3-3.1 3-7 3-7-1.3-7-3z M5 6v12c0 1.7 3.1 3 7 3s7-1.3 7-3V6 M5 12c0 1.7 3.1 3 7 3s7-1.3 7-3',
  // funnel
  filter: 'M4 5h16l-6 7v6l-4 2v-8z',
  // function arrow
  map: 'M4 12h12 M12 7l5 5-5 5 M4 7v10',
  // merge
  union: 'M4 6c6 0 8 6 16 6 M4 18c6 0 8-6 16-6',
  // window / clock
  window: 'M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16z M12 8v4l3 2',
  // two streams meeting in a time band
  'join.interval': 'M3 7h7l4 5-4 5H3 M21 7h-4 M21 17h-4 M14 12h7',
  // two streams meeting in a box (window)
  'join.window': 'M3 7h6 M3 17h6 M9 5h8v14H9z M17 12h4',
  // two streams merging into one
  join: 'M3 6h5l5 6h8 M3 18h5l5-6',
  // sigma
  aggregate: 'M18 5H6l6 7-6 7h12',
  // podium
  topn: 'M3 20h18 M9 20V8h6v12 M3 20v-7h6 M15 20v-4h6v4',
  // disk
  'sink.file': 'M5 4h11l3 3v13H5z M8 4v5h7V4 M8 14h8v6H8z',
  // eye
  'sink.postgres':
    'M12 3c4.4 0 8 1.3 8 3v12c0 1.7-3.6 3-8 3s-8-1.3-8-3V6c0-1.7 3.6-3 8-3z M4 6c0 1.7 3.6 3 8 3s8-1.3 8-3 M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  'sink.preview': 'M2 12c3-5 7-7 10-7s7 2 10 7c-3 5-7 7-10 7s-7-2-10-7z M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z',
};

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
      <path d={PATHS[type] ?? 'M4 4h16v16H4z'} />
    </svg>
  );
}
