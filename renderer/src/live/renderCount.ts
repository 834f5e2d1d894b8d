/**
 * Render counters, readable from the page as `window.__weirRenders` (an object of name -> count).
 * The e2e test proves with them that a metrics tick re-renders live badges but no graph node.
 * One integer increment per render: cheap enough to keep in production builds.
 */
const counts: Record<string, number> = {};
if (typeof window !== 'undefined')
  (window as unknown as { __weirRenders: Record<string, number> }).__weirRenders = counts;

export function countRender(name: string): void {
  counts[name] = (counts[name] ?? 0) + 1;
}
