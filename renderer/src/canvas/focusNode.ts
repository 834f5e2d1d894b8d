/**
 * Keyboard focus to a node on the canvas once React Flow has drawn it, so after a quick add or a
 * connection Tab goes on from that node instead of from `<body>` (31 Tabs back to the first node
 * before). A new node is in the DOM a frame after the commit that added it but hidden until React
 * Flow has measured it, and a hidden element refuses focus: so it tries each frame until it holds.
 */
export function focusNode(id: string, frames = 30): void {
  const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
  el?.focus();
  if (el && document.activeElement === el) return;
  if (frames > 0) requestAnimationFrame(() => focusNode(id, frames - 1));
}
