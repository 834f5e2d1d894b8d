/**
 * A node's preview figures on the canvas, above its top-left corner: "12 rows", late and bad
 * counts, "would write" for a sink, the failure when the preview names this node, and while a
 * record is traced whether the node is on its path (the node is dimmed through CSS `:has()` when
 * not, so the node view itself never re-renders for a preview). Subscribes to this node's
 * figures only.
 */
import { memo } from 'react';
import './debug.css';
import { useShallow } from 'zustand/react/shallow';
import { previewStore, tracedNodes } from './previewStore.ts';
import { failedNodes, nodeFigures, plural } from './previewFigures.ts';
import { useStore } from 'zustand';

interface Badge {
  text: string | null;
  title: string;
  failed: boolean;
  stale: boolean;
  rows: number;
  late: number;
  bad: number;
  /** null: no trace shown; else whether this node is on the traced record's path. */
  traced: boolean | null;
  tracedRows: number;
}

const NONE: Badge = {
  text: null,
  title: '',
  failed: false,
  stale: false,
  rows: 0,
  late: 0,
  bad: 0,
  traced: null,
  tracedRows: 0,
};

/** `sink`: the node's type writes (its count is what it would write). */
function PreviewBadgeImpl({ nodeId, sink }: { nodeId: string; sink: boolean }) {
  const b = useStore(
    previewStore,
    useShallow((s): Badge => {
      if (s.status === 'error' && s.job) {
        const msg = failedNodes(s.job, s.error ?? '', s.problems).get(nodeId);
        return msg ? { ...NONE, text: `preview failed: ${msg}`, title: msg, failed: true } : NONE;
      }
      const p = s.result?.nodes[nodeId];
      if (!p) return NONE;
      const f = nodeFigures(p, sink);
      const parts = [sink ? `would write ${f.rows.toLocaleString('en-US')}` : plural(f.rows, 'row')];
      if (f.late > 0) parts.push(`${f.late} late`);
      if (f.bad > 0) parts.push(`${f.bad} bad`);
      const on = tracedNodes(s.trace);
      const t = s.trace?.result?.nodes[nodeId];
      return {
        text: parts.join(' · '),
        title: `Preview, sinks off: ${sink ? `${plural(f.rows, 'row')} it would write (nothing written)` : `${plural(f.rows, 'row')} out`}${f.late ? `, ${plural(f.late, 'late record')}` : ''}${f.bad ? `, ${plural(f.bad, 'bad record')}` : ''}`,
        failed: false,
        stale: s.stale,
        rows: f.rows,
        late: f.late,
        bad: f.bad,
        traced: on ? on.has(nodeId) : null,
        tracedRows: t?.contributed.length ?? 0,
      };
    }),
  );
  if (!b.text) return null;
  return (
    <div
      className={`wnode__pv${b.failed ? ' is-failed' : ''}${b.stale ? ' is-stale' : ''}${b.traced ? ' is-traced' : ''}`}
      data-testid={`pv-badge-${nodeId}`}
      data-rows={b.rows}
      data-late={b.late}
      data-bad={b.bad}
      data-traced={b.traced === null ? '' : String(b.traced)}
      data-stale={b.stale ? 'true' : 'false'}
      title={b.stale ? `${b.title} (before the latest edits: preview again)` : b.title}
    >
      {b.text}
      {b.traced && b.tracedRows > 0 && <b> · traced {b.tracedRows}</b>}
      {b.traced === false && <span className="wtrace-dim" />}
    </div>
  );
}

export const PreviewBadge = memo(PreviewBadgeImpl);
// Named for React DevTools (and the e2e render counter): the minified build keeps no function names.
PreviewBadge.displayName = 'PreviewBadge';
