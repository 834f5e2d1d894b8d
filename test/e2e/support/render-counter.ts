/**
 * Counts React renders per component from outside the app, the way React DevTools sees them: an
 * init script installs `__REACT_DEVTOOLS_GLOBAL_HOOK__` before the page loads, react-dom
 * (production builds too) hands it every commit, and the script walks the committed tree with
 * DevTools' rule for "did this fiber render" (mounted now, or flagged PerformedWork in a subtree
 * that had work). The app ships no counting of its own; components are named by their
 * `displayName` (the minified build keeps no function names).
 *
 * The counts sit on `window.__weirRenders` (name -> renders), written only by this script.
 */
import type { BrowserContext, Page } from 'playwright-core';

declare global {
  interface Window {
    __weirRenders?: Record<string, number>;
  }
}

// Plain JavaScript text, not a serialized function: tsx would wrap a function's inner closures in
// its `__name` helper, which does not exist in the page.
const INSTALL_RENDER_COUNTER = `(() => {
  const counts = {};
  window.__weirRenders = counts;
  // React's fiber tags for components that render: function, class, forwardRef, memo, simple memo.
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const PERFORMED_WORK = 1;
  const nameOf = (f) =>
    (f.elementType && f.elementType.displayName) ||
    (f.type && f.type.displayName) ||
    // The component inside a memo with a compare function: the memo fiber carries the name.
    (f.return && f.return.tag === 14 && f.return.elementType && f.return.elementType.displayName) ||
    undefined;
  const walk = (next, prev) => {
    if (COMPONENT_TAGS.has(next.tag) && (!prev || (next.flags & PERFORMED_WORK) === PERFORMED_WORK)) {
      const name = nameOf(next);
      if (name) counts[name] = (counts[name] || 0) + 1;
    }
    // A subtree without work keeps its old children: nothing below rendered.
    if (prev && next.child === prev.child) return;
    for (let c = next.child; c; c = c.sibling) walk(c, prev ? c.alternate : null);
  };
  let nextId = 1;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => nextId++,
    checkDCE: () => {},
    onCommitFiberRoot: (_id, root) => walk(root.current, root.current.alternate),
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
  };
})();`;

/** Every page of `context` counts renders from its first script on. */
export async function countRenders(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: INSTALL_RENDER_COUNTER });
}

export function renders(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => ({ ...(window.__weirRenders ?? {}) }));
}
